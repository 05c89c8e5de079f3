package fixes

import (
	"context"
	"os/exec"
)

// NoImport: the file imports neither cancelpolicy nor bytes; the rewrite
// adds them.
func NoImport(ctx context.Context, name string) ([]byte, error) {
	return exec.CommandContext(ctx, name).CombinedOutput() // want `^hang: `
}

// Shadow: a local named bytes stands where the rewrite needs the package:
// no rewrite.
func Shadow(ctx context.Context, name string) ([]byte, error) {
	bytes := 0
	_ = bytes
	return exec.CommandContext(ctx, name).CombinedOutput() // want `^hang: `
}
