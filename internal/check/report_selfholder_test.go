//go:build unix

package check_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/systemtest"
)

// keptWriteEnd gives the command the write end of a pipe that run made
// itself, forgets to close it after Start, and reads the read end to EOF:
// the EOF never comes, since the test process itself holds a write end. It
// hands that write end to the test, which closes it to let run return.
func keptWriteEnd(held chan<- *os.File) systemtest.Runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error {
			r, w, err := os.Pipe()
			if err != nil {
				return err
			}
			defer r.Close()
			held <- w
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			cmd.Stdout, cmd.Stderr = w, w
			//execcheck:ignore tests cancelpolicy.Apply with the test's own pipe on the waiting fixture
			if err := cmd.Start(); err != nil {
				return err
			}
			// The bug: no w.Close() here.
			io.Copy(io.Discard, r)
			return cmd.Wait()
		}
	}
}

func TestHangNamesTheTestProcessHoldingTheWriteEnd(t *testing.T) {
	systemtest.NeedSight(t, "who holds the command's pipes")
	held := make(chan *os.File, 1)
	returned := make(chan struct{})
	var res exectest.Result
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		run := keptWriteEnd(held)(d.Argv())
		res = exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			defer close(returned)
			return run(ctx)
		}, exectest.Within(200*time.Millisecond))
	})
	w := <-held
	fd := fmt.Sprintf("(fd %d)", w.Fd())
	w.Close()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Errorf("run: got still running 10s after its write end was closed, want it to return")
	}
	f.WantVerdict(t, "fail", "run did not return within the bound after cancel",
		"(the test process itself", "holds the write end of the command's stdout+stderr pipe:[", fd,
		"fix: close, in run, the write end of the pipe given to the command as soon as cmd.Start returns")
	self := 0
	for _, p := range res.Holders {
		if p.PID == os.Getpid() {
			self++
		}
	}
	if self != 1 {
		t.Errorf("Result.Holders: got %v, want the test process (pid %d) once", res.Holders, os.Getpid())
	}
}

func TestHangLeavesOutTheTestProcessHoldingStdin(t *testing.T) {
	systemtest.NeedSight(t, "who holds the command's pipes")
	// The test writes to the command's stdin: its write end there is not
	// why Wait does not return. The descendant holding stdout is.
	var res exectest.Result
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd := systemtest.Command(ctx, d.Argv())
			stdin, err := cmd.StdinPipe()
			if err != nil {
				return err
			}
			defer stdin.Close()
			//execcheck:ignore a runner broken on purpose: the verdict tests need its failure
			return cmd.Run()
		}, exectest.Within(200*time.Millisecond))
	})
	f.WantVerdict(t, "fail", "run did not return within the bound after cancel", "(descendant)", "holds the write end of the command's stdout+stderr pipe:[")
	for _, p := range res.Holders {
		if p.PID == os.Getpid() {
			t.Errorf("Result.Holders: got the test process %v, want only the fixture's processes", p)
		}
	}
}
