package check_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/backoff"
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

// A check's start reaps the zombies of orphans the test process adopted
// since the toolkit last looked (here a sleep whose shell exited before
// it, as programs a test runs between checks leave): they waited for the
// next fixture's release, or the end of the test binary.
func TestNewDescendantReapsAdoptedZombies(t *testing.T) {
	systemtest.NeedSight(t, "which of the test process's children it adopted (no child subreaper)")
	zombie := adoptedZombie(t)
	exectest.NewDescendant(t)
	if _, err := zombie.Stat(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the zombie of an adopted orphan, %v, after NewDescendant: got %v, want it reaped", zombie, err)
	}
}

// adoptedZombie starts /bin/sleep 0.05 through a shell that exits at once,
// and returns it once it is a zombie of the test process, which adopted
// it. The cleanup reaps it if nothing did.
func adoptedZombie(t *testing.T) proc.Identity {
	t.Helper()
	//execcheck:ignore the shell exits at once; its sleep, adopted by the test process, is reaped by the check under test or the cleanup
	out, err := exec.Command("/bin/sh", "-c", "/bin/sleep 0.05 & echo $!").Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	id, err := proc.Identify(pid)
	if err != nil {
		t.Fatalf("the shell's sleep, pid %d: %v (gone before it was adopted)", pid, err)
	}
	t.Cleanup(func() { proc.Reap(id) })
	if !backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		s, err := id.Stat()
		return err == nil && s.Zombie() && s.PPID == os.Getpid()
	}) {
		s, err := id.Stat()
		t.Fatalf("%v: got %+v, %v, want a zombie child of the test process within 5s", id, s, err)
	}
	return id
}
