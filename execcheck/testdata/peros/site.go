// Package peros hardens its commands in a _unix.go file with a no-op
// _windows.go twin. execcheck analyzes one build at a time: on Linux the
// sites are ok; on Windows, where no group can be killed, only a Wait
// that nothing bounds is a finding (Build: cancelpolicy.Run would set the
// WaitDelay), and a kill of the direct child is all there is.
package peros

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"time"
)

// Build collects the output: on Windows nothing bounds its Wait.
func Build(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", "build", "./...")
	harden(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// Serve bounds its Wait itself.
func Serve(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "go", "run", "./server")
	harden(cmd)
	cmd.Stdout = os.Stdout
	cmd.WaitDelay = time.Second
	return cmd.Run()
}
