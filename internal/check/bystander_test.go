//go:build unix

package check_test

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/systemtest"
)

// A failing check and its cleanup kill and reap the fixture's processes
// and nothing else: processes the test itself started, in its own process
// group or in a session of their own, stay alive and stay the test's to
// wait for.
func TestBystandersAreSafe(t *testing.T) {
	sameGroup := exec.Command("/bin/sleep", "41")
	ownSession := exec.Command("/bin/sleep", "42")
	ownSession.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	for _, c := range []*exec.Cmd{sameGroup, ownSession} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	defer sameGroup.Process.Kill()
	defer ownSession.Process.Kill()

	for _, r := range []systemtest.Runner{systemtest.DefaultCancel, systemtest.WaitDelayOnly} {
		f := systemtest.RunFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb, exectest.Escaping())
			exectest.AssertCancel(tb, d, r(d.Argv()))
		})
		f.WantVerdict(t, "fail")
	}

	for name, c := range map[string]*exec.Cmd{"same group": sameGroup, "own session": ownSession} {
		id, err := proc.Identify(c.Process.Pid)
		if err != nil || !id.Alive() {
			t.Errorf("bystander in %s after failing checks: got dead (%v), want alive", name, err)
			continue
		}
		c.Process.Kill()
		err = c.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Errorf("bystander in %s: Wait by its owner: got %v, want its exit status (signal: killed)", name, err)
		}
	}
}
