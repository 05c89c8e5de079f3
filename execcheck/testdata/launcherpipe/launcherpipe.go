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

// A terminal run for an agent (compozy's createTerminal): its Wait is
// only in a goroutine whose end is awaited with the caller's context,
// so no call blocks on the copy; the group kill is still Cancel's only.
type terminal struct {
	cancel context.CancelFunc
	cmd    *exec.Cmd
	done   chan struct{}
}

func killTree(cmd *exec.Cmd) error { // want killTree:`^execcheck\[param 0: \[kills\(group:KILL\)\]\]$`
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

func startTerminal(name string, args []string) (*terminal, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Cancel = func() error { return killTree(cmd) }
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^launcher: Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) \(in killTree\)\), but os/exec calls Cancel only while the direct child runs`
		cancel()
		return nil, err
	}
	t := &terminal{cancel: cancel, cmd: cmd, done: make(chan struct{})}
	go t.wait()
	return t, nil
}

func (t *terminal) wait() {
	_ = t.cmd.Wait()
	t.cancel()
	close(t.done)
}

func (t *terminal) release(ctx context.Context) error {
	t.cancel()
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
