// Package quickstart is code under test in the shape the README's quick
// start assumes: a function that runs a command under a context and
// collects its output.
package quickstart

import (
	"bytes"
	"context"
	"os/exec"

	"github.com/exectest/exectest"
)

// Run runs argv under ctx and returns its combined output. Every exec site
// goes through ApplyCancelPolicy, so a cancel stops the whole tree.
func Run(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := exectest.ApplyCancelPolicy(cmd); err != nil {
		return nil, err
	}
	err := cmd.Run()
	return out.Bytes(), err
}
