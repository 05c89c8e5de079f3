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
	"github.com/exectest/exectest/recorder"
)

// A failure ends with the change to make, in one line, for how run runs
// the command. Here a runner builds its command with exec.Command, starts
// it, kills the direct child when ctx is done and waits; with the line
// applied (cancelpolicy.Start in place of cmd.Start, the Wait of what it
// returns in place of cmd.Wait, the kill dropped) the check passes.
func ExampleAssertCancel_fixLine() {
	for _, fixed := range []bool{false, true} {
		rec := recorder.Run(nil, "example", func(t testing.TB) {
			d := exectest.NewDescendant(t)
			exectest.AssertCancel(t, d, func(ctx context.Context) error {
				cmd := exec.Command(d.Argv()[0], d.Argv()[1:]...)
				cmd.Stdout = new(strings.Builder) // a pipe, as in most runners
				if fixed {
					s, err := cancelpolicy.Start(ctx, cmd)
					if err != nil {
						return err
					}
					return s.Wait()
				}
				//execcheck:ignore the example shows the broken runner; its fix line, applied, is the cancelpolicy.Start above
				if err := cmd.Start(); err != nil {
					return err
				}
				defer context.AfterFunc(ctx, func() { cmd.Process.Kill() })()
				return cmd.Wait()
			}, exectest.Within(500*time.Millisecond))
		})
		fmt.Println(strings.ToUpper(rec.Verdict()))
		for line := range strings.Lines(rec.Report()) {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "fix: ") {
				fmt.Println(l)
			}
		}
	}
	// Output:
	// FAIL
	// fix: start the command in a process group of its own and kill that group on cancel: cancelpolicy.Start(ctx, cmd) in place of cmd.Start(), and the Wait() of what it returns in place of cmd.Wait(), keeping what run does between them and dropping the kill (cmd from exec.Command or exec.CommandContext)
	// PASS
}
