//go:build unix

// Package wrap is reduced from puppetlabs/wash's plugin/internal: a type
// that embeds *exec.Cmd, starts it in a group of its own and kills the
// group when the context is done.
package wrap

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
)

// Command runs a command in a group of its own, killed with ctx.
type Command struct {
	*exec.Cmd
	ctx context.Context
}

// New makes a command.
func New(ctx context.Context, name string, args ...string) *Command {
	c := &Command{Cmd: exec.Command(name, args...), ctx: ctx}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}

// Start starts it and kills its group when ctx is done.
func (c *Command) Start() error { // want Start:`^execcheck\[kills: group:KILL\]$`
	if err := c.Cmd.Start(); err != nil {
		return err
	}
	go func() {
		<-c.ctx.Done()
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}()
	return nil
}

// Run starts it and waits.
func (c *Command) Run() error { // want Run:`^execcheck\[kills: group:KILL\]$`
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

// Plain kills only the direct child, through the promoted Process: the
// kill was not seen (no cancel).
type Plain struct {
	*exec.Cmd
	out bytes.Buffer
}

// NewPlain makes a shell command whose output it keeps.
func NewPlain(line string) *Plain {
	p := &Plain{Cmd: exec.Command("sh", "-c", line)}
	p.Stdout = &p.out
	return p
}

// Go runs it.
func (p *Plain) Go() error {
	if err := p.Cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(p.Process.Kill\(\)\)`
		return err
	}
	return p.Wait()
}

// Stop kills the shell alone.
func (p *Plain) Stop() { _ = p.Process.Kill() }
