//go:build unix

// Package launcherpipe holds launchers whose output os/exec copies: a
// group kill in Cancel, no WaitDelay. Wait, called at once, stops
// watching the context when the program exits, then waits for whatever
// still holds the pipe: a descendant the program left keeps it waiting,
// and a cancel no longer calls Cancel. A hang, not a launcher.
package launcherpipe

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// killGroupOnCancel is reduced from real code: a group of its own and a
// Cancel that kills it, no WaitDelay.
func killGroupOnCancel(cmd *exec.Cmd) { // want killGroupOnCancel:`^execcheck\[param 0: \[group cancel\(group:KILL\)\]\]$`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		return os.ErrProcessDone
	}
}

// interpreter is python3, or python where there is no python3: not a
// constant, so it may exit and leave what the code started.
func interpreter() string {
	bin := "python3"
	if _, err := exec.LookPath(bin); err != nil {
		bin = "python"
	}
	return bin
}

// RunCode runs code with its output in builders and waits at once: a
// subprocess the code starts and does not wait for holds the pipe after
// the interpreter exited, and Wait waits for it past any cancel.
func RunCode(ctx context.Context, code string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, interpreter(), "-c", code)
	killGroupOnCancel(cmd)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*strings.Builder and nothing bounds Wait \(no WaitDelay\): Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\), but os/exec calls Cancel only while the direct child runs, and the program \(interpreter\(\)\) is not a constant: it may be a launcher, .*; when it exits, Wait stops watching the context`
		return "", err
	}
	err := cmd.Wait()
	return stdout.String() + stderr.String(), err
}

// Script runs a shell script that backgrounds a job, collecting its
// output: the job holds the pipe after sh exits.
func Script(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", "server & echo started")
	killGroupOnCancel(cmd)
	return cmd.Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait \(no WaitDelay\): Cancel kills the group .* starts a background job`
}

// Bounded sets a WaitDelay: os/exec closes the pipe that long after the
// program exits and Wait returns; the group left running is the launcher.
func Bounded(ctx context.Context, code string) (string, error) {
	cmd := exec.CommandContext(ctx, interpreter(), "-c", code)
	killGroupOnCancel(cmd)
	cmd.WaitDelay = 2 * time.Second
	var out strings.Builder
	cmd.Stdout = &out
	err := cmd.Run() // want `^launcher: Cancel kills the group`
	return out.String(), err
}

// NoPipe writes to a file: Wait returns when the program exits, and the
// group left running is the launcher.
func NoPipe(ctx context.Context, code string, f *os.File) error {
	cmd := exec.CommandContext(ctx, interpreter(), "-c", code)
	killGroupOnCancel(cmd)
	cmd.Stdout = f
	return cmd.Run() // want `^launcher: Cancel kills the group`
}
