// Package runner runs a command for the rest of the program.
//
// This is ../runner/runner.go with the fix line its test prints applied
// verbatim: cancelpolicy.Run(ctx, cmd) in place of cmd.Start(), the kill
// and cmd.Wait().
package runner

import (
	"bytes"
	"context"
	"os/exec"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run runs argv and returns its output, and stops its whole tree once
// ctx is done.
func Run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cancelpolicy.Run(ctx, cmd)
	return out.String(), err
}
