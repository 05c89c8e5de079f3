//go:build unix

// Package waitfree holds commands whose Wait is never called (reduced
// from a test harness that starts a server and never waits for it): a
// descendant holding the output pipe blocks no call, and a cancel that
// reaches only the direct child leaves an orphan, not a hang. A Wait in
// a goroutine, even one every waiter of which times out, still lasts
// while the pipe is held: a hang, as the class is defined.
package waitfree

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"syscall"
	"time"
)

type command struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
}

// start: the command is never waited for; stop kills sh alone.
func (c *command) start(line string) error {
	c.cmd = exec.Command("/bin/sh", "-c", line)
	c.cmd.Stdout = &c.stdout
	return c.cmd.Start() // want `^orphan: a cancel kills only the direct child \(c.cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait is never called: nothing waits for os/exec's copy of the output\)`
}

func (c *command) stop() { c.cmd.Process.Kill() }

// State is a server under test.
type State struct {
	cmd      *exec.Cmd
	waitDone chan struct{}
	timeout  time.Duration
}

// Start: Wait runs in a goroutine; Start's and Stop's waits for it time
// out, but the goroutine's Wait lasts while a descendant holds the pipe.
func (s *State) Start(path string, stdout io.Writer) error {
	s.cmd = exec.Command(path)
	s.cmd.Stdout = stdout
	s.waitDone = make(chan struct{})
	if err := s.cmd.Start(); err != nil { // want `^hang: stdout is an io.Writer \(stdout\), a pipe unless it holds an \*os.File and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(s.cmd.Process.Signal\(syscall.SIGTERM\)\)`
		return err
	}
	go func() {
		defer close(s.waitDone)
		s.cmd.Wait()
	}()
	select {
	case <-s.waitDone:
		return errors.New("exited")
	case <-time.After(s.timeout):
		return nil
	}
}

func (s *State) Stop() error { // want Stop:`execcheck\[kills: child:other, child:KILL\]`
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.waitDone:
		return nil
	case <-time.After(s.timeout):
		s.cmd.Process.Signal(syscall.SIGKILL)
		return errors.New("timeout")
	}
}

// Runner waits for its goroutine without a timeout after the kill: that
// wait lasts while a descendant holds the pipe.
type Runner struct {
	cmd  *exec.Cmd
	done chan error
}

func (r *Runner) Start(path string, stdout io.Writer) error {
	r.cmd = exec.Command(path)
	r.cmd.Stdout = stdout
	r.done = make(chan error, 1)
	if err := r.cmd.Start(); err != nil { // want `^hang: stdout is an io.Writer \(stdout\)`
		return err
	}
	go func() { r.done <- r.cmd.Wait() }()
	return nil
}

func (r *Runner) Stop() error { // want Stop:`execcheck\[kills: child:KILL\]`
	r.cmd.Process.Kill()
	return <-r.done
}
