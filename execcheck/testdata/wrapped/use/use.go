//go:build unix

// Package use runs commands through another package's type that embeds
// *exec.Cmd: the runs are listed, as unknown, not skipped.
package use

import (
	"bytes"
	"context"

	"example.com/t/wrapped/wrap"
)

// Invoke runs a script through wrap.Command's own Run.
func Invoke(ctx context.Context, path string) ([]byte, error) {
	cmd := wrap.New(ctx, path, "list")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.Bytes(), err
}
