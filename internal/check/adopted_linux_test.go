package check_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/systemtest"
)

// A survivor that came to the test process when its parent was killed is
// described as adopted, though the check holds a pidfd on it (its watch on
// the descendant), which is not os/exec's: the line said "(the test
// process)", as if the test process had started the sleep itself.
func TestSurvivorAdoptedByTheTestProcessSaysSo(t *testing.T) {
	systemtest.NeedSight(t, "which of the test process's children it adopted (no child subreaper)")
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			argv := d.Argv()
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr // files: Wait returns at the shell's end
			//execcheck:ignore the broken runner under test: it kills the shell alone; the check kills and reaps the rest
			if err := cmd.Start(); err != nil {
				return err
			}
			<-ctx.Done()
			cmd.Process.Kill()
			return cmd.Wait()
		})
	})
	f.WantVerdict(t, "fail", "survivors", fmt.Sprintf("(descendant): ppid %d (the test process, adopted: its own parent exited)", os.Getpid()))
}

// The fixture child that run started itself is never described as
// adopted, though run dropped its *os.Process and the garbage collector
// freed it, and with it Go's pidfd on the child, before the failure was
// written:
// the check saw the child while run still held it. It said "(fixture
// child): ppid N (the test process, adopted: its own parent exited)".
func TestDroppedFixtureChildIsNotCalledAdopted(t *testing.T) {
	systemtest.NeedSight(t, "which of the test process's children it adopted (no child subreaper)")
	var (
		child int
		lost  bool // Go's pidfd on the child closed before run returned
	)
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			// os.StartProcess, not a Cmd: GODEBUG=execwait=2 (TestMain)
			// panics on a Cmd collected without its Wait.
			argv := d.Argv()
			//execcheck:ignore the broken runner under test: it leaves the tree running; the check kills and reaps it
			p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{Files: []*os.File{nil, os.Stderr, os.Stderr}})
			if err != nil {
				return err
			}
			<-ctx.Done()
			child = p.Pid // the last use of p: collectable from here
			lost = collectPidfd(child)
			return nil
		})
	})
	if !lost {
		t.Skipf("pid %d: Go's pidfd on it still open after 50 garbage collections: nothing lost to test", child)
	}
	f.WantVerdict(t, "fail", "survivors", fmt.Sprintf("pid %d (fixture child): ppid %d (the test process), ", child, os.Getpid()))
}

// collectPidfd runs the garbage collector until the test process holds
// no pidfd on pid any more, at most 50 times; it reports whether it got
// there.
func collectPidfd(pid int) bool {
	for range 50 {
		if !proc.GoHoldsPidfd(pid) {
			return true
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	return !proc.GoHoldsPidfd(pid)
}
