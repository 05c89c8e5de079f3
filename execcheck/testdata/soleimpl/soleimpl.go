//go:build unix

// Package soleimpl is reduced from Insajin/autopus-adk's orchestra: an
// unexported interface the tests fake, one type of the package that
// implements it around *exec.Cmd, and a runner that calls its Terminate
// (a group kill) on ctx.Done() until Wait returns. The kill was not seen
// through the interface: the site was a hang.
package soleimpl

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"syscall"
)

type command interface {
	SetStdout(w io.Writer)
	Start() error
	Wait() error
	Terminate() error
}

type execCommand struct {
	cmd *exec.Cmd
}

func newCommand(ctx context.Context, name string, args ...string) command {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &execCommand{cmd: cmd}
}

func (e *execCommand) SetStdout(w io.Writer) { e.cmd.Stdout = w }

func (e *execCommand) Start() error {
	return e.cmd.Start() // ok: TestSoleImpl
}

func (e *execCommand) Wait() error { return e.cmd.Wait() }

func (e *execCommand) Terminate() error { // want Terminate:`^execcheck\[kills: group:KILL\]$`
	return syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
}

// Run waits in a goroutine and kills the group when ctx is done first.
func Run(ctx context.Context, bin string) (string, error) {
	cmd := newCommand(ctx, bin, "-p")
	var out bytes.Buffer
	cmd.SetStdout(&out)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()
	select {
	case err := <-waitCh:
		return out.String(), err
	case <-ctx.Done():
		_ = cmd.Terminate()
		return "", <-waitCh
	}
}

// stopper has two implementations: which one a call runs is not known,
// so a call of Stop is not followed.
type stopper interface{ Stop() error }

type groupStop struct{ cmd *exec.Cmd }

func (g *groupStop) Stop() error { // want Stop:`^execcheck\[kills: group:KILL\]$`
	return syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
}

type noStop struct{}

func (noStop) Stop() error { return nil }

// RunTwo keeps the hang: the kill through stopper may be noStop's.
func RunTwo(ctx context.Context, bin string, s stopper) error {
	g := &groupStop{cmd: exec.CommandContext(ctx, bin)}
	g.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	g.cmd.Stdout = &out
	if err := g.cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
		return err
	}
	go func() {
		<-ctx.Done()
		_ = s.Stop()
	}()
	return g.cmd.Wait()
}

// Killer is exported: another package may implement it, so a call of
// Kill is not followed even with one implementation here.
type Killer interface{ Kill() error }

type groupKill struct{ cmd *exec.Cmd }

func (g *groupKill) Kill() error { // want Kill:`^execcheck\[kills: group:KILL\]$`
	return syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
}

// RunExported keeps the hang.
func RunExported(ctx context.Context, bin string, k Killer) error {
	g := &groupKill{cmd: exec.CommandContext(ctx, bin)}
	g.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	g.cmd.Stdout = &out
	if err := g.cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
		return err
	}
	go func() {
		<-ctx.Done()
		_ = k.Kill()
	}()
	return g.cmd.Wait()
}
