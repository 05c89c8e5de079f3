package check_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/exectest/exectest"
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
