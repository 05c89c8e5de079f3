//go:build unix

// Package funcvar runs commands through package variables that hold a
// function of the package, reduced from golang.org/x/build's gitmirror:
// the declaration's default is replaced by a system's in init, and the
// Linux one kills the group after a grace, while Wait has not returned.
package funcvar

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
)

var runCmdContext = runCmdContextDefault

func init() { runCmdContext = runCmdContextLinux }

// runCmdContextDefault kills only the direct child: the one init
// replaces.
func runCmdContextDefault(ctx context.Context, cmd *exec.Cmd) error { // want runCmdContextDefault:`execcheck\[.*\]`
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		cmd.Process.Kill()
	}()
	return cmd.Wait()
}

// runCmdContextLinux interrupts the direct child, and kills the group
// once a grace passed without Wait returning.
func runCmdContextLinux(ctx context.Context, cmd *exec.Cmd) error { // want runCmdContextLinux:`execcheck\[.*\]`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	resChan := make(chan error, 1)
	go func() {
		resChan <- cmd.Wait()
	}()
	select {
	case err := <-resChan:
		return err
	case <-ctx.Done():
	}
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-resChan:
		return ctx.Err()
	case <-time.After(time.Second):
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-resChan
	return ctx.Err()
}

// Fetch runs git through the variable: ok, git waits for its children.
func Fetch(ctx context.Context, dir string) error {
	cmd := exec.Command("git", "fetch")
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	return runCmdContext(ctx, cmd)
}

// Script runs a shell script execcheck cannot read: a launcher may exit
// before the grace, and the group kill then never comes.
func Script(ctx context.Context, script string) error {
	cmd := exec.Command("sh", "-c", script)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	return runCmdContext(ctx, cmd) // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait`
}

// Unpiped runs a script with no output pipe: Wait returns when the
// shell exits, and the watch with it, so the group kill after the grace
// comes only while the shell runs.
func Unpiped(ctx context.Context, script string) error {
	cmd := exec.Command("sh", "-c", script)
	return runCmdContext(ctx, cmd) // want `^launcher: a kill by hand reaches the group .* only until Wait returns`
}

// runner is replaced outside init (a setter): not followed.
var runner = runCmdContextDefault

// SetRunner lets a caller replace the runner.
func SetRunner(f func(context.Context, *exec.Cmd) error) { runner = f }

// Replaced's run goes through a function value execcheck does not follow.
func Replaced(ctx context.Context) error {
	cmd := exec.Command("git", "gc")
	var buf bytes.Buffer
	cmd.Stdout = &buf
	return runner(ctx, cmd)
}
