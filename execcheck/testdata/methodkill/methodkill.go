//go:build unix

// Package methodkill holds a command kept in a field whose Cancel
// reaches the group kill through methods of the type that keeps it: the
// Cancel interrupts, then terminates after a grace period, each by a
// method that signals -pid(), pid() a method too.
package methodkill

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Config is what the caller gives: the output goes to any io.Writer.
type Config struct {
	Stdout io.Writer
	Grace  time.Duration
}

// proc is reduced from real code: a job's process, in a group of its
// own, its output to the configured io.Writer.
type proc struct {
	mu      sync.Mutex
	conf    Config
	command *exec.Cmd
	done    chan struct{}
}

func (p *proc) pid() int { return p.command.Process.Pid }

func (p *proc) setup(ctx context.Context, path string, args []string) {
	p.command = exec.CommandContext(ctx, path, args...)
	p.command.Cancel = p.onCancel
	p.command.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.command.Stdout = p.conf.Stdout
}

// onCancel interrupts the group, and kills it if it outlives the grace
// period.
func (p *proc) onCancel() error { // want onCancel:`^execcheck\[kills: group:other, group:KILL\]$`
	_ = p.Interrupt()
	go func() {
		select {
		case <-p.done:
		case <-time.After(p.conf.Grace):
			_ = p.Terminate()
		}
	}()
	return os.ErrProcessDone
}

// Interrupt signals the group.
func (p *proc) Interrupt() error { // want Interrupt:`^execcheck\[kills: group:other\]$`
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.signalGroup(syscall.SIGTERM)
}

// Terminate kills the group.
func (p *proc) Terminate() error { // want Terminate:`^execcheck\[kills: group:KILL\]$`
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.signalGroup(syscall.SIGKILL)
}

func (p *proc) signalGroup(sig syscall.Signal) error {
	return syscall.Kill(-p.pid(), sig)
}

// Run was unknown: the Cancel "killed nothing execcheck can see". With
// no WaitDelay the io.Writer's pipe keeps Wait waiting for a descendant
// that left the group.
func (p *proc) Run(ctx context.Context, path string, args []string) error {
	p.setup(ctx, path, args)
	if err := p.command.Start(); err != nil { // want `^hang: stdout is an io.Writer \(p.conf.Stdout\), a pipe unless it holds an \*os.File and nothing bounds Wait \(no WaitDelay\): the group is killed \(syscall.Kill\(-p.pid\(\), sig\) \(in signalGroup\)\), by Cancel and by the methods it calls`
		return err
	}
	defer close(p.done)
	return p.command.Wait()
}

// bounded is the same with a WaitDelay: ok, Interrupt and Terminate
// kill the group, also after the direct child exited.
type bounded struct {
	conf    Config
	command *exec.Cmd
}

func (b *bounded) pid() int { return b.command.Process.Pid }

func (b *bounded) onCancel() error { // want onCancel:`^execcheck\[kills: group:other, group:KILL\]$`
	_ = b.Interrupt()
	time.AfterFunc(b.conf.Grace, func() { _ = b.Terminate() })
	return os.ErrProcessDone
}

// Interrupt signals the group.
func (b *bounded) Interrupt() error { return syscall.Kill(-b.pid(), syscall.SIGTERM) } // want Interrupt:`^execcheck\[kills: group:other\]$`

// Terminate kills the group.
func (b *bounded) Terminate() error { return syscall.Kill(-b.pid(), syscall.SIGKILL) } // want Terminate:`^execcheck\[kills: group:KILL\]$`

func (b *bounded) Run(ctx context.Context, path string, args []string) error {
	b.command = exec.CommandContext(ctx, path, args...)
	b.command.Cancel = b.onCancel
	b.command.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	b.command.Stdout = b.conf.Stdout
	b.command.WaitDelay = b.conf.Grace + 10*time.Second
	return b.command.Run()
}

// Timed kills the group by a timer of its own, no Cancel: a kill by hand
// that is no Cancel's, ok even with the pipe and no WaitDelay.
func Timed(conf Config, d time.Duration, path string) error {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = conf.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	t := time.AfterFunc(d, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	defer t.Stop()
	return cmd.Wait()
}
