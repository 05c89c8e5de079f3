// Package readsapart runs commands another package made with their
// output read in goroutines of its own (gotenberg's office printer,
// before its fix): Run closes the pipes once the direct child exits,
// and the cancel reaches only that child.
package readsapart

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"

	"example.com/t/readsapart/xexec"
)

func Convert(ctx context.Context, debug bool, src string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd, err := xexec.CommandContext(ctx, debug, "unoconv", src)
	if err != nil {
		return err
	}
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Run \(readsapart.go:\d+\) comes while the reads of the pipe run in goroutines \(started by xexec.pipe, which returned\)`
}

// logged starts the reads of cmd's output in a goroutine and returns.
func logged(cmd *exec.Cmd) error { // want logged:`^execcheck\[param 0: \[readpipe readsapart\]\]$`
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	go func() { _, _ = io.Copy(os.Stderr, out) }()
	return nil
}

// Logged: the same, with the helper in the package.
func Logged(ctx context.Context, src string) error {
	cmd := exec.CommandContext(ctx, "unoconv", src)
	if err := logged(cmd); err != nil {
		return err
	}
	return cmd.Run() // want `^orphan: .*cmd.Run \(readsapart.go:\d+\) comes while the reads of the pipe run in goroutines \(started by readsapart.logged, which returned\)`
}

// drained reads cmd's output to EOF where it stands.
func drained(cmd *exec.Cmd) error { // want drained:`^execcheck\[param 0: \[readpipe runs:Start\]\]$`
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	_, err = io.Copy(os.Stderr, out)
	return err
}

// Drained: the reads came before the Wait, to EOF: it waits for them.
func Drained(ctx context.Context, src string) error {
	cmd := exec.CommandContext(ctx, "unoconv", src)
	if err := drained(cmd); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	return cmd.Wait()
}
