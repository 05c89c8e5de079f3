//go:build unix

// Package procwait holds commands waited for with Process.Wait, never
// cmd.Wait: os/exec's copy of a non-*os.File output is then waited for
// by nobody, so no call blocks on the pipe; a cancel that kills only the
// direct child leaves its descendants running.
package procwait

import (
	"bytes"
	"context"
	"io"
	"os/exec"
)

// ProcWait copies the output into a buffer and waits for the process
// only.
func ProcWait(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Wait is never called \(cmd.Process.Wait at procwait.go:\d+ waits instead\): nothing waits for os/exec's copy of the output\)`
		return err
	}
	_, err := cmd.Process.Wait()
	return err
}

// ReadsToEOF reads a StdoutPipe until EOF before Process.Wait: that read
// lasts while any descendant holds the pipe.
func ReadsToEOF(ctx context.Context, prog string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return nil, err
	}
	b, err := io.ReadAll(stdout)
	_, _ = cmd.Process.Wait()
	return b, err
}
