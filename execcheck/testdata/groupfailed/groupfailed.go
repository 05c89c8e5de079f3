//go:build unix

// Package groupfailed holds goa's signalProcess: the signal is a local
// given SIGTERM or SIGKILL (the weakest, SIGTERM, is what it is sure to
// send), and the direct child is signalled only where the group kill
// failed, which for a command in a group of its own means no process
// of the group is left: that fallback kills nothing.
package groupfailed

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func signalProcess(pid int, force bool) error { // want signalProcess:`^execcheck\[pid param 0: group:other, child:other\]$`
	sig := syscall.SIGTERM
	if force {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-pid, sig); err != nil {
		return syscall.Kill(pid, sig)
	}
	return nil
}

// Grouped watches the context apart from Wait and signals the group,
// SIGTERM then SIGKILL: ok.
func Grouped(ctx context.Context, script string, grace time.Duration) error {
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		_ = signalProcess(cmd.Process.Pid, false)
		time.Sleep(grace)
		_ = signalProcess(cmd.Process.Pid, true)
	}()
	return cmd.Wait()
}

// Ungrouped is Grouped with no group of its own: the group kill fails
// (no group has the child's pid), and the fallback signals the direct
// child alone: orphan.
func Ungrouped(ctx context.Context, script string, grace time.Duration) error {
	cmd := exec.Command("sh", "-c", script)
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(syscall.Kill\(-pid, sig\) \(in signalProcess\), but the command has no process group of its own`
		return err
	}
	go func() {
		<-ctx.Done()
		_ = signalProcess(cmd.Process.Pid, false)
		time.Sleep(grace)
		_ = signalProcess(cmd.Process.Pid, true)
	}()
	return cmd.Wait()
}
