//go:build unix

// Package attrparam holds a helper that puts the *syscall.SysProcAttr it
// is given in a group of its own (reduced from a process utility
// package: SetOptNewProcessGroup(cmd.SysProcAttr)). The command whose
// SysProcAttr it is has a group: a kill of -pid reaches it.
package attrparam

import (
	"context"
	"io"
	"os/exec"
	"syscall"
)

// setNewGroup sets Setpgid on the attributes given.
func setNewGroup(attrs *syscall.SysProcAttr) { // want setNewGroup:`^execcheck\[attr param 0: group\]$`
	attrs.Setpgid = true
}

// Watched: its group is killed by hand when the context is done.
func Watched(ctx context.Context, prog string, w io.Writer) error {
	c := exec.Command(prog)
	c.SysProcAttr = &syscall.SysProcAttr{}
	setNewGroup(c.SysProcAttr)
	c.Stdout = w
	if err := c.Start(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL) })
	defer stop()
	return c.Wait()
}

// Local: the same through a local variable given to the command after.
func Local(ctx context.Context, prog string, w io.Writer) error {
	attrs := &syscall.SysProcAttr{}
	setNewGroup(attrs)
	c := exec.Command(prog)
	c.SysProcAttr = attrs
	c.Stdout = w
	if err := c.Start(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL) })
	defer stop()
	return c.Wait()
}
