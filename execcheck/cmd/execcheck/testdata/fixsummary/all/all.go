// Package all has only sites -fix rewrites.
package all

import (
	"bytes"
	"context"
	"os/exec"
)

// Run collects the output in a buffer.
func Run(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// Status returns git's output.
func Status(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status", "--short")
	cmd.Dir = dir
	return cmd.Output()
}

// Script returns a script's output, stdout and stderr.
func Script(ctx context.Context, script string) (string, error) {
	out, err := exec.CommandContext(ctx, "sh", "-c", script).CombinedOutput()
	return string(out), err
}
