//go:build unix

package exectest_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/recorder"
)

// A failure ends with the change to make, in one line. Here a runner
// builds its command with exec.Command and kills the direct child when
// ctx is done; with the line applied (cancelpolicy.Run in place of Start,
// the kill and Wait) the check passes.
func ExampleAssertCancel_fixLine() {
	for _, fixed := range []bool{false, true} {
		rec := recorder.Run(nil, "example", func(t testing.TB) {
			d := exectest.NewDescendant(t)
			exectest.AssertCancel(t, d, func(ctx context.Context) error {
				cmd := exec.Command(d.Argv()[0], d.Argv()[1:]...)
				cmd.Stdout = new(strings.Builder) // a pipe, as in most runners
				if fixed {
					return cancelpolicy.Run(ctx, cmd)
				}
				//execcheck:ignore the example shows the broken runner; its fix line, applied, is the cancelpolicy.Run above
				if err := cmd.Start(); err != nil {
					return err
				}
				defer context.AfterFunc(ctx, func() { cmd.Process.Kill() })()
				return cmd.Wait()
			}, exectest.Within(500*time.Millisecond))
		})
		fmt.Println(strings.ToUpper(rec.Verdict()))
		for _, line := range fixLines(rec.Report()) {
			fmt.Println(line)
		}
	}
	// Output:
	// FAIL
	// fix: start the command in a process group of its own and kill that group on cancel: cancelpolicy.Run(ctx, cmd) in place of cmd.Run(), or of cmd.Start(), the kill and cmd.Wait() (cmd from exec.Command or exec.CommandContext)
	// PASS
}
