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
				v := startVictim(t, tmp, victimSpec{shape: c.shape})
				v.killWatchdog(t)
				v.cmd.Process.Kill()
				v.wait()
				if live := v.live(0); len(live) != len(v.procs) {
					t.Fatalf("victim's fixture processes once the victim was killed: got %d alive, want %d: nothing left to test", len(live), len(v.procs))
				}
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
