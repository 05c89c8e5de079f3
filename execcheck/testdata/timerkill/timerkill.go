//go:build unix

// Package timerkill holds group kills a timer makes beside the run,
// reduced from BlueDoraemon/kite's bash tool: the timer bounds Wait, as
// WaitDelay does, by killing whatever in the group still holds the
// pipe; a cancel that kills only the direct child leaves an orphan.
package timerkill

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Bash is kite's tool after its fix.
func Bash(ctx context.Context, command string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	timer := time.AfterFunc(30*time.Second, func() {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	defer timer.Stop()
	out, err := cmd.CombinedOutput() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) in time.AfterFunc\(30 \* time.Second, ...\) \(timerkill.go:21\) kills the group, and whatever still holds the pipe, by then\), but the descendants keep running`
	return string(out), err
}

// Term: a SIGTERM the group may ignore bounds nothing.
func Term(ctx context.Context, command string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	timer := time.AfterFunc(30*time.Second, func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	})
	defer timer.Stop()
	out, err := cmd.CombinedOutput() // want `^hang: the output is collected by CombinedOutput\(\) and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child`
	return string(out), err
}

// Leader: the timer kills the direct child only, which ends no holder.
func Leader(ctx context.Context, command string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	timer := time.AfterFunc(30*time.Second, func() {
		_ = cmd.Process.Kill()
	})
	defer timer.Stop()
	out, err := cmd.CombinedOutput() // want `^hang: the output is collected by CombinedOutput\(\) and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child`
	return string(out), err
}

// killGroupLater is zot's killProcessGroup: SIGTERM to the group now,
// SIGKILL in a timer.
func killGroupLater(cmd *exec.Cmd) { // want killGroupLater:`^execcheck\[param 0: \[kills\(group:other, group:KILL\)\]\]$`
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	time.AfterFunc(3*time.Second, func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
}

// CleanupAfter is zot's bash tool before its fix: the timer is armed
// only once Wait returned, which a descendant holding the pipe keeps
// from returning: it bounds nothing.
func CleanupAfter(ctx context.Context, command string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*strings.Builder and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; the group kill by hand \(syscall.Kill\(-pgid, syscall.SIGKILL\) \(in killGroupLater\)\) comes only after Wait returned`
		return "", err
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		killGroupLater(cmd)
	}
	return out.String(), err
}
