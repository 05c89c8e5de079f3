//go:build unix

// Package afterwait holds group kills that come only after Wait
// returned (reduced from an AI agent's bash tool: a helper waits, then
// kills what is left of the group). While a descendant holds an
// unbounded pipe, Wait does not return and the kill never comes.
package afterwait

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"
)

func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

func cmdWait(cmd *exec.Cmd) error { // want cmdWait:`execcheck\[param 0: \[kills\(group:KILL\) waited\]\]`
	pgid := cmd.Process.Pid
	err := cmd.Wait()
	if groupAlive(pgid) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return err
}

func bash(ctx context.Context, command string, out *bytes.Buffer) *exec.Cmd { // want bash:`execcheck\[result: \[made\(1\) group copypipe cancel\(group:KILL\)\]\]`
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	return cmd
}

// Run: bash exits at once after backgrounding a job that holds the
// buffer's pipe: Cancel is no longer called, and Wait never returns.
func Run(ctx context.Context, command string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := bash(ctx, command, &out)
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\): Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\), but os/exec calls Cancel only while the direct child runs, and bash -c runs a script`
		return "", err
	}
	err := cmdWait(cmd)
	return out.String(), err
}

// Bounded: WaitDelay bounds Wait, and the kill after it ends what the
// job left.
func Bounded(ctx context.Context, command string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := bash(ctx, command, &out)
	cmd.WaitDelay = 15 * time.Second
	if err := cmd.Start(); err != nil {
		return "", err
	}
	err := cmdWait(cmd)
	return out.String(), err
}

func killGroup(cmd *exec.Cmd) { // want killGroup:`execcheck\[param 0: \[kills\(group:KILL\)\]\]`
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// DefaultCancel (reduced from a build tool's runner): the default
// Cancel kills only bash, WaitDelay bounds Run, and the group kill after
// every Run then ends what bash left: a cancel reaches the whole group.
func DefaultCancel(ctx context.Context, command string) (string, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	killGroup(cmd)
	return out.String(), err
}

// DefaultCancelUnbounded: with no WaitDelay, Run waits for a job
// that holds the buffer's pipe, and the kill after it never comes.
func DefaultCancelUnbounded(ctx context.Context, command string) (string, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err := cmd.Run() // want `^hang: .*; the group kill by hand \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) \(in killGroup\)\) comes only after Wait returned, which a descendant holding the pipe keeps from ending; fix: `
	killGroup(cmd)
	return out.String(), err
}
