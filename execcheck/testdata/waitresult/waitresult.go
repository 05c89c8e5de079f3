//go:build unix

// Package waitresult holds group kills by hand after Wait that run only
// on some results of Wait (reduced from real code: the group killed
// when Wait returned exec.ErrWaitDelay). Such a kill reaches a
// descendant that held the pipe, not one that did not: a command that
// exits at once leaves the rest of its group running.
package waitresult

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

type cleanup struct{}

func (cleanup) cancel(cmd *exec.Cmd) error { // want cancel:`^execcheck\[param 0: \[kills\(group:KILL\)\]\]$`
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

func grouped(ctx context.Context, prog string, c cleanup, out *bytes.Buffer) *exec.Cmd { // want grouped:`^execcheck\[result: \[made\(1\) group waitdelay copypipe cancel\(group:KILL\)\]\]$`
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second
	cmd.Cancel = func() error { return c.cancel(cmd) }
	cmd.Stdout = out
	return cmd
}

// OnWaitDelay: the group is killed after Wait only when Wait returned
// exec.ErrWaitDelay.
func OnWaitDelay(ctx context.Context, prog string) ([]byte, error) {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	if err := cmd.Start(); err != nil { // want `^launcher: Cancel kills the group .* the group kill by hand \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) \(in cancel\)\) comes only when Wait returned exec.ErrWaitDelay \(a descendant held the pipe past WaitDelay\): a descendant that does not hold the pipe outlives`
		return nil, err
	}
	err := cmd.Wait()
	if errors.Is(err, exec.ErrWaitDelay) {
		_ = c.cancel(cmd)
	}
	return buf.Bytes(), err
}

// Equal: the same with ==.
func Equal(ctx context.Context, prog string) error {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	err := cmd.Run() // want `^launcher: .*comes only when`
	if err == exec.ErrWaitDelay {
		_ = c.cancel(cmd)
	}
	return err
}

// Switch: on a case of a switch.
func Switch(ctx context.Context, prog string) error {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	err := cmd.Run() // want `^launcher: .*comes only when`
	switch {
	case errors.Is(err, exec.ErrWaitDelay):
		_ = c.cancel(cmd)
	}
	return err
}

// OnError: the group is killed only when Wait returned an error; a
// command that exits 0 at once leaves its group.
func OnError(ctx context.Context, prog string) error {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	if err := cmd.Start(); err != nil { // want `^launcher: .*comes only when err != nil \(err from Wait\)`
		return err
	}
	err := cmd.Wait()
	if err != nil {
		_ = c.cancel(cmd)
	}
	return err
}

// Always: the group is killed after every Wait: nothing outlives it.
func Always(ctx context.Context, prog string) error {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	if err := cmd.Start(); err != nil {
		return err
	}
	err := cmd.Wait()
	_ = c.cancel(cmd)
	return err
}

// Deferred: a deferred group kill after every Wait.
func Deferred(ctx context.Context, prog string) error {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	if err := cmd.Start(); err != nil {
		return err
	}
	defer c.cancel(cmd)
	return cmd.Wait()
}

// DefaultCancel: the default Cancel kills the direct child; the group
// kill after an ErrWaitDelay reaches only what held the pipe.
func DefaultCancel(ctx context.Context, prog string) error {
	var c cleanup
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	cmd.Stdout = &buf
	err := cmd.Run() // want `^orphan: a cancel kills only the direct child`
	if errors.Is(err, exec.ErrWaitDelay) {
		_ = c.cancel(cmd)
	}
	return err
}

// AfterSetup: as OnWaitDelay, reduced further from the same code: a
// set-up step after Start that fails disposes of the group; it is no
// cancel either.
func AfterSetup(ctx context.Context, prog string, setup func(*exec.Cmd) error) ([]byte, error) {
	var c cleanup
	var buf bytes.Buffer
	cmd := grouped(ctx, prog, c, &buf)
	if err := cmd.Start(); err != nil { // want `^launcher: .*comes only when Wait returned exec.ErrWaitDelay`
		return nil, err
	}
	if err := setup(cmd); err != nil {
		_ = c.cancel(cmd)
		_ = cmd.Wait()
		return buf.Bytes(), err
	}
	err := cmd.Wait()
	if errors.Is(err, exec.ErrWaitDelay) {
		_ = c.cancel(cmd)
	}
	return buf.Bytes(), err
}
