// Package run does not type-check: its generated package is missing.
package run

import (
	"bytes"
	"context"
	"os/exec"

	"example.com/illtyped/gen"
)

// Plain does not use gen: execcheck still finds its hang.
func Plain(ctx context.Context) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "-c", "sleep 20 & wait")
	cmd.Stdout = &out
	return cmd.Run()
}

// Client uses gen: its run is unknown.
func Client(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "companion", gen.Flag)
	return cmd.Run()
}
