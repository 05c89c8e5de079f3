// Package quickstart is code under test in the shape the README's quick
// start assumes: a function that runs a command under a context and
// collects its output.
package quickstart

import (
	"bytes"
	"context"
	"os/exec"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run runs argv under ctx and returns its combined output. Every exec site
// goes through cancelpolicy.Run, so a cancel stops the whole tree, also
// when the direct child has already exited and left its work running.
func Run(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cancelpolicy.Run(ctx, cmd)
	return out.Bytes(), err
}
