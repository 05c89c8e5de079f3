// Package downstream is code under test in another module: a runner with
// the bug execcheck finds, seeded.
package downstream

import (
	"bytes"
	"context"
	"os/exec"
)

// Run runs argv under ctx and returns its combined output.
func Run(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}
