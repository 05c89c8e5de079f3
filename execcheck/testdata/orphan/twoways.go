package orphan

import (
	"context"
	"io"
	"os/exec"
)

// TwoWays is reduced from a robot SDK's one-shot process: one command,
// run with CombinedOutput when its output is logged and with Run
// otherwise. CombinedOutput's copy is its run's alone: the Run copies
// nothing, and its Wait ends when the direct child exits.
func TwoWays(ctx context.Context, name string, log io.Writer) error {
	cmd := exec.CommandContext(ctx, name)
	if log != nil {
		out, err := cmd.CombinedOutput() // want `^hang: the output is collected by CombinedOutput\(\) and nothing bounds Wait`
		_, _ = log.Write(out)
		return err
	}
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(no output pipe\)`
}

// TwoWaysBuffered: a writer set on the command is every run's copy.
func TwoWaysBuffered(ctx context.Context, name string, log io.Writer, buffered bool) error {
	cmd := exec.CommandContext(ctx, name)
	if buffered {
		_, err := cmd.Output() // want `^hang: `
		return err
	}
	cmd.Stdout = log
	return cmd.Run() // want `^hang: `
}
