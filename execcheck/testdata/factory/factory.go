//go:build unix

// Package factory makes its commands through values of
// exec.CommandContext's type whose value the package does not set,
// reduced from google/android-cuttlefish's host orchestrator: main puts
// exec.CommandContext there, tests a fake.
package factory

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"
)

// ExecContext is the seam: exec.CommandContext in production.
type ExecContext = func(ctx context.Context, name string, arg ...string) *exec.Cmd

type runner struct {
	execContext ExecContext
	timeout     time.Duration
}

// run is cuttlefish's cvdCommand.Run: sudo does not pass the kill on,
// and cvd's children hold the buffer's pipe.
func (r *runner) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	cmd := r.execContext(ctx, "sudo", args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil { // want `^hang: .*; the command is made by r.execContext, of exec.CommandContext's type, whose value execcheck cannot see, taken as exec.CommandContext; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
		return "", err
	}
	return out.String(), nil
}

// Commander is an interface seam of the same type.
type Commander interface {
	CommandContext(ctx context.Context, name string, arg ...string) *exec.Cmd
}

func viaInterface(ctx context.Context, c Commander, script string) error {
	cmd := c.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^launcher: .*sh -c runs a script.*; the command is made by c.CommandContext, of exec.CommandContext's type`
}

// plain is exec.Command's type: no cancel, unless by hand.
func plain(newCmd func(name string, arg ...string) *exec.Cmd, dir string) ([]byte, error) {
	return newCmd("git", "-C", dir, "status").Output()
}

// maker has another type: what it makes is not known.
type maker func(dir string) *exec.Cmd

func other(m maker) error {
	return m("/tmp").Run()
}
