//go:build unix && go1.25

package fixes

import (
	"context"
	"os/exec"
)

// Old is in a file for Go 1.25, before errors.AsType: the rewrite keeps
// Output's ExitError.Stderr with errors.As.
func Old(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status")
	cmd.Dir = dir
	return cmd.Output() // want `^hang: `
}
