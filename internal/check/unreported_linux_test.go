package check_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// policyOutput is the policy with Cmd.Output, which keeps the command's
// stderr in the *exec.ExitError it returns.
func policyOutput(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		if err := cancelpolicy.Apply(cmd); err != nil {
			return err
		}
		//execcheck:ignore tests cancelpolicy.Apply with Output on the waiting fixture
		_, err := cmd.Output()
		return err
	}
}

// A command that runs where the fixture's folder is hidden (a sandbox
// root without it) starts, and its fixture exits before it can report:
// the message must say so, and why, not that the command never started.
func TestAssertCancelFixtureCannotReport(t *testing.T) {
	testenv.NeedBwrap(t)
	t.Setenv("EXECTEST_STRICT", "0")
	status := "the command ran and exited with status 121 before the fixture child reported: status 121 from the fixture: it found no report FIFO at "
	cases := []struct {
		name string
		run  systemtest.Runner
		text []string
	}{
		{"policy", systemtest.Policy, []string{status}},
		{"policy with Output", policyOutput, []string{status, "the fixture said on its stderr: cannot open its report FIFO "}},
	}
	for _, sh := range systemtest.Shapes {
		for _, c := range cases {
			t.Run(sh.Name+"/"+c.name, func(t *testing.T) {
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.Opts...)
					hidden := filepath.Dir(d.Script()) // the fixture's folder
					exectest.AssertCancel(tb, d, prefixed(testenv.BwrapArgs(testenv.BwrapHide(hidden)), c.run)(d.Argv()))
				})
				f.WantVerdict(t, "skip", append(c.text, "fix: let the command reach the fixture's folder")...)
				if rep := f.Recorded(); strings.Contains(rep, "run did not start the command") {
					t.Errorf("message: got %s\nwant no \"run did not start the command\": the command ran", rep)
				}
			})
		}
	}
}
