//go:build unix

// Package hang holds exec sites whose Wait can last as long as a
// descendant holding the output pipe.
package hang

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// DefaultCancel: exec.CommandContext's Cancel kills the direct child only,
// and the buffer makes os/exec copy through a pipe.
func DefaultCancel(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
	return out.String(), err
}

// GitLog: Output collects the output through a pipe.
func GitLog(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "log", "--oneline")
	cmd.Dir = dir
	return cmd.Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait`
}

// Chained: the command made and run in one expression.
func Chained(ctx context.Context, script string) ([]byte, error) {
	return exec.CommandContext(ctx, "sh", "-c", script).CombinedOutput() // want `^hang: the output is collected by CombinedOutput\(\)`
}

// Lines reads StdoutPipe until EOF: WaitDelay would not even help here.
func Lines(ctx context.Context, argv []string, line func(string)) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\), which WaitDelay does not close`
		return err
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line(sc.Text())
	}
	return cmd.Wait()
}

// KillCancel says Cancel = Process.Kill out loud: the same flaw.
func KillCancel(ctx context.Context, argv []string, stdout io.Writer) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = stdout
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	return cmd.Run() // want `^hang: stdout is an io.Writer \(stdout\), a pipe unless it holds an \*os.File and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
}

// Watch is a context watched by hand: exec.Command, and a kill of the
// direct child when ctx is done; it then waits for Wait.
func Watch(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: .*a cancel kills only the direct child \(cmd.Process.Kill\(\)\).*in place of the kill by hand$`
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		cmd.Process.Kill()
		<-done
		return ctx.Err()
	}
}

// Timer kills the direct child when a timer fires.
func Timer(argv []string, d time.Duration) ([]byte, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	t := time.AfterFunc(d, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
	defer t.Stop()
	return cmd.CombinedOutput() // want `^hang: .*cmd.Process.Signal\(syscall.SIGKILL\)`
}

// NoGroup signals -pid, but the child was never given a group of its own:
// the kill reaches no group.
func NoGroup(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Run() // want `but the command has no process group of its own \(no Setpgid or Setsid\)`
	return out.String(), err
}

// GroupNoDelay kills the group of go test, a program that is no
// launcher, but without a WaitDelay a descendant that left the group
// keeps the pipe and Wait.
func GroupNoDelay(ctx context.Context, pkg string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", "test", pkg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\): Cancel kills the group`
	return out.Bytes(), err
}
