package check_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/systemtest"
)

// A test binary killed mid-check (SIGKILL: no cleanup runs) together with
// its watchdog (a kill of the whole tree, the OOM killer) leaves its
// fixture running. The next test binary's first fixture kills those
// processes, found by the FIFO they hold, and removes the folder: without
// a cgroup too (as nobody), and when the folder was removed already.
func TestNextRunKillsWhatAKilledRunLeft(t *testing.T) {
	systemtest.NeedSight(t, "which processes hold a killed run's FIFO, by which the next run finds what it left")
	t.Run("this user", func(t *testing.T) {
		cases := []struct {
			shape  string
			folder string // what happens to the dead victim's folder before the next run
		}{
			{"shell", "kept"},
			{"shell", "removed"},
			{"hermetic", "kept"},
		}
		for _, c := range cases {
			t.Run(c.shape+"/folder "+c.folder, func(t *testing.T) {
				tmp := t.TempDir()
				v := killedWithItsWatchdog(t, tmp, c.shape)
				if c.folder == "removed" {
					os.RemoveAll(v.folder)
				}
				runNext(t, tmp)
				if left := v.leftovers(); len(left) > 0 {
					t.Errorf("killed victim's fixture after the next run's first fixture: got %d left, want 0 (tracked by %s):\n\t%s", len(left), v.tracker, strings.Join(left, "\n\t"))
				}
			})
		}
	})
	t.Run("nobody", func(t *testing.T) {
		runAsNobody(t, "^TestNextRunKillsWhatAKilledRunLeft$/^this_user$")
	})
}

// killedWithItsWatchdog starts a victim, kills its watchdog, then the
// victim, and returns it once its fixture is seen left running. Under
// load the victim may learn of its watchdog's death first, start another
// (see watchdog.maxStarts), and that one cleans up when the victim dies:
// then nothing is left to test, and it tries again, up to 3 times, then
// skips saying so.
func killedWithItsWatchdog(t *testing.T, tmp, shape string) *victim {
	t.Helper()
	const tries = 3
	var alive, want int
	for range tries {
		v := startVictim(t, tmp, victimSpec{shape: shape})
		v.killWatchdog(t)
		v.cmd.Process.Kill()
		v.wait()
		live := v.live(0)
		if len(live) == len(v.procs) {
			return v
		}
		alive, want = len(live), len(v.procs)
	}
	t.Skipf("victim's fixture processes once the victim was killed: got %d alive, want %d, in each of %d tries: the victim started a new watchdog before it died, which cleaned up (nothing left to test)", alive, want, tries)
	return nil
}

// runNext runs TestNextRun in a new test binary with TMPDIR tmp.
func runNext(t *testing.T, tmp string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestNextRun$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), noRaceExitSleep, "TMPDIR="+tmp, nextRunEnv+"=1")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNextRun") {
		t.Fatalf("next run: got %v, want TestNextRun passed; output:\n%s", err, out)
	}
}
