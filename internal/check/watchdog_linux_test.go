package check_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/internal/watchdog"
	"github.com/exectest/exectest/proctest"
)

// goneWithin is the promise: what a dead test binary's fixture was made
// of is gone this long after it died, whatever it died of.
const goneWithin = time.Second

// victimTimeout is the -test.timeout of the victim that dies of it: long
// enough for its fixture to start on a loaded machine.
const victimTimeout = 8 * time.Second

// Whatever ends a test binary while a fixture is in use, nothing of the
// fixture is left a second later: not its processes, its cgroup or its
// folder, nor the watchdog that removed them. SIGINT and SIGTERM are
// cleaned up by the test binary itself, which says what it did in one
// line on stderr and still dies of the signal. As root (a cgroup per
// fixture), as nobody (the child subreaper; in CI also in a delegated
// cgroup), and in the portable mode (the fixture's reports and gopsutil).
func TestKilledTestBinaryLeavesNothing(t *testing.T) {
	// The three at once: the victims mostly wait.
	t.Run("this user", func(t *testing.T) {
		t.Parallel()
		killedTestBinaryLeavesNothing(t)
	})
	t.Run("nobody", func(t *testing.T) {
		t.Parallel()
		runAsNobody(t, "^TestKilledTestBinaryLeavesNothing$/^this_user$")
	})
	t.Run("portable", func(t *testing.T) {
		t.Parallel()
		runPortable(t, "^TestKilledTestBinaryLeavesNothing$/^this_user$")
	})
}

// deaths are the ways a test binary dies with a fixture in use: by itself
// (see victimDeaths) or by a signal from outside.
var deaths = []struct {
	name  string
	death string         // what the victim does itself
	sig   syscall.Signal // what the test sends it, if anything
}{
	{name: "timeout", death: "timeout"}, // -test.timeout: see startDyingVictim
	{name: "os.Exit", death: "exit"},
	{name: "log.Fatal in TestMain", death: "testmain"},
	{name: "panic in a goroutine", death: "panic"},
	{name: "SIGKILL", sig: syscall.SIGKILL},
	{name: "SIGINT", sig: syscall.SIGINT},
	{name: "SIGTERM", sig: syscall.SIGTERM},
}

func killedTestBinaryLeavesNothing(t *testing.T) {
	for _, shape := range []string{"shell", "hermetic"} {
		for _, d := range deaths {
			if testing.Short() && d.death == "timeout" {
				continue // it waits for the victim's -test.timeout: the long form only
			}
			t.Run(shape+"/"+d.name, func(t *testing.T) {
				t.Parallel()
				v := startDyingVictim(t, victimSpec{shape: shape, death: d.death})
				if v.watchdog.PID == 0 {
					t.Errorf("victim's watchdog: got none, want one started with its first fixture")
				}
				if d.sig == syscall.SIGINT && testenv.SigIgnored(t, v.cmd.Process.Pid, d.sig) {
					// Ignored from the start, as a script's background job is:
					// inherited, and the toolkit leaves it so (see
					// TestInterruptIgnoredStaysIgnored).
					envswitch.Unmet(t, "SIGINT: got ignored in the victim, inherited from go test's parent (a background job of a script?), want it handled: run go test with SIGINT at its default")
				}
				if d.sig != 0 {
					if err := v.cmd.Process.Signal(d.sig); err != nil {
						t.Fatal(err)
					}
				}
				err := v.wait()
				died := time.Now()
				if d.sig == syscall.SIGINT || d.sig == syscall.SIGTERM {
					wantDiedOf(t, v, err, d.sig)
					wantInterruptLine(t, v, d.sig)
				}
				left := v.leftBehind(goneWithin)
				if len(left) > 0 {
					later := "gone within 5s more"
					if still := v.leftBehind(5 * time.Second); len(still) > 0 {
						later = fmt.Sprintf("%d still there 5s later", len(still))
					}
					t.Logf("victim's stderr:\n%s", v.stderr.String())
					t.Errorf("victim dead (%v) for %v: got %d things of its fixture left, want 0 (%s; tracked by %s):\n\t%s",
						err, goneWithin, len(left), later, v.tracker, strings.Join(left, "\n\t"))
					return
				}
				t.Logf("victim dead (%v): its fixture gone after %v", err, time.Since(died).Round(time.Millisecond))
			})
		}
	}
}

// startDyingVictim starts a victim that will die as s says. One that
// dies of its -test.timeout gets victimTimeout, and if its fixture was not
// ready by then (start-up on a loaded machine, no finding), it is started
// again with twice the time, up to four times victimTimeout.
func startDyingVictim(t *testing.T, s victimSpec) *victim {
	t.Helper()
	if s.death != "timeout" {
		return startVictim(t, t.TempDir(), s)
	}
	for timeout := victimTimeout; ; timeout *= 2 {
		s.args = []string{"-test.timeout=" + timeout.String()}
		v, err := tryStartVictim(t, t.TempDir(), s)
		if err == nil {
			return v
		}
		if timeout >= 4*victimTimeout || !strings.Contains(v.stderr.String(), "panic: test timed out after") {
			t.Fatal(err)
		}
		t.Logf("victim died of its -test.timeout=%v before its fixture was ready: started again with %v", timeout, 2*timeout)
	}
}

// leftBehind lists what of the victim's fixture, and its watchdog, is
// still there after up to grace: live processes, the folder, the cgroup.
func (v *victim) leftBehind(grace time.Duration) []string {
	var left []string
	backoff.Poll(grace, time.Millisecond, 20*time.Millisecond, func() bool {
		left = nil
		for _, id := range v.procs {
			if id.Alive() {
				left = append(left, "fixture process "+id.String())
			}
		}
		if v.watchdog.PID != 0 && v.watchdog.Alive() {
			left = append(left, "the watchdog, "+v.watchdog.String())
		}
		for _, path := range []string{v.folder, v.cgroup} {
			if _, err := os.Stat(path); path != "" && !errors.Is(err, os.ErrNotExist) {
				left = append(left, path)
			}
		}
		return len(left) == 0
	})
	return left
}

// wantDiedOf checks that the victim died of sig: the test binary's own
// cleanup raises it again.
func wantDiedOf(t *testing.T, v *victim, err error, sig syscall.Signal) {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Errorf("victim's end: got %v, want death by %v", err, sig)
		return
	}
	if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
		t.Errorf("victim's end: got %v, want death by %v; stderr:\n%s", err, sig, v.stderr.String())
	}
}

// wantInterruptLine checks the one line the victim says on stderr of what
// its cleanup on sig did: both fixture processes killed, the folder and
// the cgroup removed.
func wantInterruptLine(t *testing.T, v *victim, sig syscall.Signal) {
	t.Helper()
	name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
	var lines []string
	for line := range strings.Lines(v.stderr.String()) {
		if strings.HasPrefix(line, "exectest: "+name) {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	if len(lines) != 1 {
		t.Errorf("victim's stderr on %s: got %d lines from exectest, want 1 saying what was killed and removed:\n%s", name, len(lines), v.stderr.String())
		return
	}
	line := lines[0]
	t.Logf("victim said on %s: %s", name, line)
	var want []string
	for _, id := range v.procs {
		want = append(want, strconv.Itoa(id.PID))
	}
	killed, removed, _ := strings.Cut(line, "; removed ")
	for _, pid := range want {
		if !strings.Contains(killed+",", " "+pid+",") {
			t.Errorf("victim's line on %s: got %q, want pid %s among the killed", name, line, pid)
		}
	}
	for _, path := range []string{v.folder, v.cgroup} {
		if path != "" && !strings.Contains(removed, path) {
			t.Errorf("victim's line on %s: got %q, want %s among the removed", name, line, path)
		}
	}
}

// runPortable runs the tests that run selects in this test binary with
// EXECTEST_PORTABLE=1, as macOS and the BSDs would run them.
func runPortable(t *testing.T, run string) {
	t.Helper()
	if proc.Portable() {
		t.Skip("this run is in the portable mode already")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run="+run, "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), noRaceExitSleep, proc.PortableEnv+"=1")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	// Not a child subreaper in the portable mode: what its victims left
	// came to this one, which reaps it (else the zombies pile up, run
	// after run, and slow down every look at the machine's processes).
	proc.ReapAdopted()
	wantRerunPassed(t, fmt.Sprintf("with %s=1", proc.PortableEnv), run, out, err)
}

// The watchdog is no test's leak, even when it starts within a check's
// window (the first fixture of a test binary, or a watchdog started again
// after its predecessor was lost: killed here): proctest does not list
// it, and a descriptor snapshot taken before it started does not list the
// test process's end of its pipe. (goleak, in VerifyTestMain, finds no
// goroutine of it: it has none in the test process.)
func TestWatchdogIsNoLeak(t *testing.T) {
	// It kills one on purpose, run after run under -count.
	watchdog.AllowRestarts()
	exectest.NewDescendant(t)
	first, ok := watchdog.Running()
	if !ok {
		t.Fatalf("watchdog with a fixture in use: got none: %v", watchdog.Err())
	}
	if err := first.Kill(); err != nil {
		t.Fatal(err)
	}
	testenv.AwaitDead(first, 5*time.Second)
	// A killed Go process's main thread is a zombie (and its fd folder
	// empty) before its other threads have exited, and they still share
	// the descriptors: until the last is gone the pipe has a reader, a
	// write to it succeeds, and the test process cannot tell its watchdog
	// is lost.
	backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", first.PID))
		return err != nil || len(tasks) <= 1
	})
	snap := exectest.SnapshotDescriptors()

	exectest.NewDescendant(t)

	second, ok := watchdog.Running()
	if !ok || second == first {
		t.Fatalf("watchdog after the first was killed: got %v (running %v), want another: %v", second, ok, watchdog.Err())
	}
	if !slices.Contains(proc.Children(os.Getpid()), second.PID) {
		t.Fatalf("watchdog %v: got no child of the test process, want one (else this test checks nothing)", second)
	}
	onlyIt := proctest.IgnoreProcess(func(p proctest.Process) bool { return p.PID != second.PID || p.Start != second.Start })
	if err := proctest.Find(onlyIt, proctest.MaxWait(time.Millisecond)); err != nil {
		t.Errorf("proctest.Find: got %v, want the watchdog left out", err)
	}
	pipe, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/3", second.PID))
	if err != nil || !proc.IsPipe(pipe) {
		t.Fatalf("watchdog %v: fd 3: got %q, %v, want its pipe", second, pipe, err)
	}
	// The fixture's own FIFOs are open until its cleanup: only the pipe
	// matters here.
	if err := snap.Find(); err != nil && strings.Contains(err.Error(), pipe) {
		t.Errorf("descriptors opened since the snapshot: got the watchdog's pipe %s among them, want it left out:\n%v", pipe, err)
	}
}
