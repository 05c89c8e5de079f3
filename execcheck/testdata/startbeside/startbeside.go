//go:build unix

// Package startbeside kills a command's group on a select's arm beside
// the arm that takes Start's result, reduced from dimmerz92/eavesdrop's
// task runner before its fix: that kill comes only while Start has not
// returned; the cancel of the running task is the default Cancel's.
package startbeside

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Shell runs tasks in a shell of their own group.
type Shell struct {
	ctx     context.Context
	cmd     *exec.Cmd
	pid     int
	timeout time.Duration
}

// ExecAndWait is eavesdrop's before its fix.
func (s *Shell) ExecAndWait(task string) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	s.cmd = exec.CommandContext(ctx, "sh", "-c", task)
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s.cmd.Stdout = os.Stdout
	s.cmd.Stderr = os.Stdout
	errCh := make(chan error, 1)
	go func() {
		errCh <- s.cmd.Start() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
	}()
	select {
	case <-ctx.Done():
		return s.killGroup()
	case err := <-errCh:
		if err != nil {
			return err
		}
	}
	s.pid = s.cmd.Process.Pid
	return s.cmd.Wait()
}

// Watched: the same select, then a watch of its own for the run.
func (s *Shell) Watched(task string) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	cmd := exec.Command("sh", "-c", task)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	errCh := make(chan error, 1)
	go func() {
		errCh <- cmd.Start() // ok: the watch after Start kills the group, also after sh exited
	}()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-errCh:
		if err != nil {
			return err
		}
	}
	go func() {
		<-ctx.Done()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}()
	return cmd.Wait()
}

func (s *Shell) killGroup() error { // want killGroup:`^execcheck\[kills: group:KILL\]$`
	pgid, err := syscall.Getpgid(s.pid)
	if err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	}
	return syscall.Kill(-pgid, syscall.SIGKILL)
}
