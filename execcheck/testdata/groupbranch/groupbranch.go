//go:build unix

// Package groupbranch holds commands put in a group of their own on one
// arm of a branch only (reduced from a job scheduler's shell plugin: the
// group only when the job runs as another user). On the other arms the
// command stays in the caller's group, and kill(-pid) reaches nothing.
package groupbranch

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

func setAttr(cmd *exec.Cmd, config map[string]string) { // want setAttr:`execcheck\[param 0: \[group\(one arm\)\]\]`
	if su := config["su"]; su != "" {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: 1000, Gid: 1000}
	}
}

func processKill(cmd *exec.Cmd) error { // want processKill:`execcheck\[param 0: \[kills\(group:KILL\)\]\]`
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// Job: the timer's kill comes only when a timeout is set, the group
// only when su is: whether the two go together is past execcheck.
func Job(command string, config map[string]string, timeout time.Duration) ([]byte, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	setAttr(cmd, config)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if timeout != 0 {
		t := time.AfterFunc(timeout, func() { processKill(cmd) })
		defer t.Stop()
	}
	err := cmd.Wait()
	return out.Bytes(), err
}

// Cancelled: Cancel kills the group on every run, which has one only
// when su is set.
func Cancelled(ctx context.Context, command string, config map[string]string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	setAttr(cmd, config)
	cmd.Cancel = func() error { return processKill(cmd) }
	return cmd.Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) \(in processKill\), but the command gets a process group of its own only on one arm of the branch at groupbranch.go:19`
}

// Platform: the branch on runtime.GOOS chooses how, not whether.
func Platform(ctx context.Context, command string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "rsync", command)
	if runtime.GOOS != "windows" {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Output()
}

// MadeOnArm: the command is made on the arm that sets its group.
func MadeOnArm(ctx context.Context, command string, shell bool) ([]byte, error) {
	var cmd *exec.Cmd
	if shell {
		cmd = exec.CommandContext(ctx, "rsync", command)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	} else {
		cmd = exec.CommandContext(ctx, "tar", command)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Output()
}

func setAttrForTimeout(cmd *exec.Cmd, config map[string]string) { // want setAttrForTimeout:`execcheck\[param 0: \[group\(one arm\)\]\]`
	if config["timeout"] != "" {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
}

// TimedAsUser: the kill comes when a timeout is set, the group when su
// is: a job with a timeout and no su keeps its group running.
func TimedAsUser(command string, config map[string]string) ([]byte, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	setAttr(cmd, config)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) \(in processKill\), which comes when the branch at groupbranch.go:\d+ tests "timeout", but the command gets a process group of its own only on one arm of the branch at groupbranch.go:19 \(SysProcAttr\{Setpgid: true\} \(in setAttr\)\), which tests "su": without it the kill reaches nothing\)`
		return nil, err
	}
	jobTimeout := config["timeout"]
	if jobTimeout != "" {
		d, err := time.ParseDuration(jobTimeout)
		if err != nil {
			return nil, err
		}
		t := time.AfterFunc(d, func() { processKill(cmd) })
		defer t.Stop()
	}
	err := cmd.Wait()
	return out.Bytes(), err
}

// Timed: the group and the kill both come with a timeout.
func Timed(command string, config map[string]string) ([]byte, error) {
	cmd := exec.Command("/bin/sh", "-c", command)
	setAttrForTimeout(cmd, config)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var jt time.Duration
	if s := config["timeout"]; s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, err
		}
		jt = d
	}
	if jt != 0 {
		t := time.AfterFunc(jt, func() { processKill(cmd) })
		defer t.Stop()
	}
	err := cmd.Wait()
	return out.Bytes(), err
}

// leaderAttr puts the command in a group on every arm: a session of its
// own, or a group.
func leaderAttr(cmd *exec.Cmd, leader bool) { // want leaderAttr:`execcheck\[param 0: \[group\]\]`
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if leader {
		cmd.SysProcAttr.Setsid = true
	} else if !cmd.SysProcAttr.Setsid {
		cmd.SysProcAttr.Setpgid = true
	}
}

// Leader: its group is there whichever arm ran.
func Leader(ctx context.Context, leader bool) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "rsync", "-a", "src", "dst")
	leaderAttr(cmd, leader)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Output()
}
