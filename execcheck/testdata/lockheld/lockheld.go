//go:build unix

// Package lockheld kills a command's group from a method that takes the
// lock its run holds until Wait returns, reduced from leptonai/gpud's
// pkg/process: the kill waits for Wait, which waits for the pipe.
package lockheld

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

type process struct {
	cmdMu sync.Mutex
	cmd   *exec.Cmd
	out   bytes.Buffer
}

// run holds cmdMu from Start until Wait returns.
func (p *process) run(ctx context.Context, script string) error {
	p.cmdMu.Lock()
	defer p.cmdMu.Unlock()
	p.cmd = exec.CommandContext(ctx, "bash", "-c", script)
	p.cmd.Stdout = &p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.cmd.Cancel = func() error { return syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }
	if err := p.cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\): Cancel kills the group .*; the kill by hand \(syscall.Kill\(-p.cmd.Process.Pid, syscall.SIGKILL\)\) takes process.cmdMu, which the run holds until Wait returns: it comes only after`
		return err
	}
	return p.cmd.Wait()
}

// close takes cmdMu: it kills only once run's Wait is back.
func (p *process) close() error { // want close:`^execcheck\[kills: group:KILL\]$`
	p.cmdMu.Lock()
	defer p.cmdMu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}

type released struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	out bytes.Buffer
}

// run releases mu once the command started: the kill can come while
// Wait waits.
func (r *released) run(script string) error {
	r.mu.Lock()
	r.cmd = exec.Command("bash", "-c", script)
	r.cmd.Stdout = &r.out
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err := r.cmd.Start()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	return r.cmd.Wait()
}

func (r *released) close() error { // want close:`^execcheck\[kills: group:KILL\]$`
	r.mu.Lock()
	defer r.mu.Unlock()
	return syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
}

type logged struct {
	sync.Mutex
	cmd *exec.Cmd
}

// run holds the embedded mutex across Run, with no pipe: the kill comes
// after Run, and reaches what the child left.
func (l *logged) run(script string, log *os.File) error {
	l.Lock()
	defer l.Unlock()
	l.cmd = exec.Command("bash", "-c", script)
	l.cmd.Stdout = log
	l.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return l.cmd.Run()
}

func (l *logged) stop() {
	l.Lock()
	defer l.Unlock()
	_ = syscall.Kill(-l.cmd.Process.Pid, syscall.SIGKILL)
}

type cancelled struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	out bytes.Buffer
}

// run holds mu through Run; stop calls Cancel by hand under mu, so only
// once Run is back.
func (c *cancelled) run(ctx context.Context, script string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cmd = exec.CommandContext(ctx, "bash", "-c", script)
	c.cmd.Stdout = &c.out
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.cmd.Cancel = func() error { return syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL) }
	return c.cmd.Run() // want `^hang: .*; the kill by hand \(c.cmd.Cancel\(\) by hand at lockheld.go:\d+: syscall.Kill\(-c.cmd.Process.Pid, syscall.SIGKILL\)\) takes cancelled.mu, which the run holds until Wait returns: it comes only after`
}

func (c *cancelled) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.cmd.Cancel()
}
