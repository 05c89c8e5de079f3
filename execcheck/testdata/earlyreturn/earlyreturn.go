//go:build unix

// Package earlyreturn holds kills on the two sides of an if whose body
// returns: what follows it runs only when the body did not, so a group
// kill in the body does not cover a kill of the direct child after it.
package earlyreturn

import (
	"context"
	"os/exec"
	"syscall"
)

// EitherOr kills the group only when group is set; otherwise only the
// direct child.
func EitherOr(ctx context.Context, prog string, group bool) error {
	cmd := exec.Command(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
		return err
	}
	go func() {
		<-ctx.Done()
		if group {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			return
		}
		_ = cmd.Process.Kill()
	}()
	return cmd.Wait()
}

// Fallback kills the direct child only when the group kill failed:
// the group kill was tried first, on every path.
func Fallback(ctx context.Context, prog string) error {
	cmd := exec.Command(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err == nil {
			return
		}
		_ = cmd.Process.Kill()
	}()
	return cmd.Wait()
}

// GroupGone kills the direct child only where Getpgid failed: the child
// is gone then, and that kill reaches nothing (no orphan). The group kill
// finds the group by Getpgid, which fails once Wait reaped the child: it
// comes only while the child runs, and prog may be a launcher.
func GroupGone(ctx context.Context, prog string) error {
	cmd := exec.Command(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-pgid, syscall.SIGKILL\)\) only while the direct child runs`
		return err
	}
	go func() {
		<-ctx.Done()
		if pgid, err := syscall.Getpgid(cmd.Process.Pid); err == nil && pgid > 0 {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			return
		}
		_ = cmd.Process.Kill()
	}()
	return cmd.Wait()
}
