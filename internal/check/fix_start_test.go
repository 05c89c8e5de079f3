//go:build unix

package check_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
)

// startErr is what cmd.Start returns for a Cancel set on a command from
// exec.Command: a plain error that does not quote its cause.
const startErr = "exec: command with a non-nil Cancel was not created with CommandContext"

// Where run's cmd.Start failed, the check's fix line says so: that the
// command did not start, and the error run returned. It said only "fix:
// run must start d.Argv() (or d.Script()) under ctx and return only when
// the command is done", as if run had never tried. Applied (the command
// from exec.CommandContext, as the error says), the check passes.
func TestFixLineNamesTheStartThatFailed(t *testing.T) {
	kill := func(cmd *exec.Cmd) func() error {
		return func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	}
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			argv := d.Argv()
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = kill(cmd)
			//execcheck:ignore the broken runner under test: its Start fails, nothing runs
			if err := cmd.Start(); err != nil {
				return err
			}
			return cmd.Wait()
		})
	})
	verdict := "skip"
	if strictMode() {
		verdict = "fail"
	}
	want := check.FixNotStarted(fmt.Errorf("%s", startErr))
	f.WantVerdict(t, verdict, want)
	for _, w := range []string{"the command did not start", fmt.Sprintf("%q", startErr)} {
		if !strings.Contains(want, w) {
			t.Errorf("fix line: got %q, want it to say %q", want, w)
		}
	}
	f = systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			argv := d.Argv()
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = kill(cmd)
			//execcheck:ignore the fix line's change applied, exactly: a hand group kill, enough for this fixture's waiting child (no launcher)
			if err := cmd.Start(); err != nil {
				return err
			}
			return cmd.Wait()
		})
	})
	f.WantVerdict(t, "pass")
}
