//go:build unix

package exectest_test

import (
	"errors"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/recorder"
)

// Script's file must be runnable at once even while other goroutines fork:
// a child forked while the file is open for writing keeps it so until its
// exec, and running the file fails with "text file busy" meanwhile
// (go.dev/issue/22315). flakehunt once caught it under load.
func TestScriptRunsWhileOtherGoroutinesFork(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				exec.Command("/bin/true").Run()
			}
		})
	}
	defer wg.Wait()
	defer close(stop)
	for range 100 {
		f := systemtest.RunFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			cmd := exec.Command(d.Script())
			//execcheck:ignore the test kills the child only; the fixture's cleanup stops its descendant
			if err := cmd.Start(); err != nil {
				tb.Fatalf("start of Script(): %v (text file busy: %v)", err, errors.Is(err, syscall.ETXTBSY))
			}
			cmd.Process.Kill()
			cmd.Wait()
		})
		if f.Failed() {
			t.Fatalf("Script() beside forking goroutines:%s", f.Recorded())
		}
	}
}

// The check releases the fixture's folder, Script's file in it: a Script
// asked for after the check would name a file that is gone, and says so,
// with the fix, instead. It names the Descendant by the test that made it
// and the check that released it (it named the toolkit's token).
func TestScriptAfterItsCheckFails(t *testing.T) {
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()))
		d.Script()
		tb.Error("Script after the check returned")
	})
	f.WantVerdict(t, recorder.Fail, "exectest: Script: the Descendant that "+t.Name()+" made (at descendant_script_test.go:",
		"was released by its check (the check in "+t.Name()+" at descendant_script_test.go:", "call Script before AssertCancel")
	if strings.Contains(f.Recorded(), "Script after the check returned") {
		t.Errorf("Script after the check: got a return, want the test stopped; recorded:%s", f.Recorded())
	}
}
