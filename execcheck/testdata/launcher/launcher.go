//go:build unix

// Package launcher holds exec sites whose cancel stops the group only while
// the direct child runs, or sends it a signal background jobs ignore.
package launcher

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// HandWritten is the fix written by hand: a group of its own, SIGKILL to
// it in Cancel, WaitDelay. os/exec calls Cancel only while the direct
// child runs: a launcher's group outlives it.
func HandWritten(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	return cmd.Run() // want `^launcher: Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\), but os/exec calls Cancel only while the direct child runs, and the program \(argv\[0\]\) is not a constant: it may be a launcher, which exits at once and leaves its work running: its group keeps running after it exits; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// Background starts its work in the background and exits.
func Background(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "server --port 80 &")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `sh -c "server --port 80 &" starts a background job`
}

// Applied configures the command with cancelpolicy.Apply, which stops the
// waiting shape only.
func Applied(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if err := cancelpolicy.Apply(cmd, cancelpolicy.WaitDelay(time.Second)); err != nil {
		return err
	}
	return cmd.Run() // want `^launcher: Cancel kills the group \(cancelpolicy.Apply's Cancel kills the group\)`
}

// Interrupt sends SIGINT to the group and nothing after: background jobs
// of sh -c ignore it.
func Interrupt(ctx context.Context, script string) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^launcher: a cancel sends the group a signal that background jobs of sh -c ignore \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGINT\)\), and no SIGKILL follows: they keep running; fix: run it with cancelpolicy.Run\(ctx, cmd, cancelpolicy.Graceful\(sig, grace\)\): the group gets sig, then SIGKILL after the grace$`
}

// Npx runs a package's binary through a shim.
func Npx(ctx context.Context, pkg string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "npx", pkg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Output() // want `npx is a launcher shim`
}

// Daemon starts its work in a session of its own: Contain is the advice.
func Daemon(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "setsid worker & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `fix: run it with cancelpolicy.Run\(ctx, cmd, cancelpolicy.Contain\(\)\) \(the command line runs setsid: only a cgroup of its own stops what leaves the group; Linux\)$`
}
