package started

import (
	"context"
	"os/exec"

	"example.com/started/runner"
)

// Build runs a configured build script through the other package's
// helper.
func Build(ctx context.Context, script string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	return runner.Capture(cmd)
}

// Test runs it through this package's helper, which hands it to another.
func Test(ctx context.Context, script string) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	return check(cmd)
}

func check(cmd *exec.Cmd) error { return start(cmd) }

func start(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Wait()
}
