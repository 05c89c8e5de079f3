//go:build unix

// Package cancelkept sets the Cancel of a command it keeps in a field in
// a method that other methods call, reduced from leptonai/gpud's
// pkg/process: the Cancel's kill is os/exec's to make, not a kill by
// hand at each call of the method.
package cancelkept

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"
)

type process struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

func (p *process) startCommand(ctx context.Context, script string) error {
	p.cmd = exec.CommandContext(ctx, "bash", "-c", script)
	p.cmd.Stdout = &p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.cmd.Cancel = func() error { return syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }
	return p.cmd.Start() // want `^launcher: Cancel kills the group \(syscall.Kill\(-p.cmd.Process.Pid, syscall.SIGKILL\)\), but os/exec calls Cancel only while the direct child runs`
}

// watch restarts the command when it fails, as gpud's watchCmd does;
// it runs in a goroutine nothing waits for, so no call blocks on Wait's
// copy of the output: a launcher, not a hang.
func (p *process) watch(ctx context.Context, script string) {
	for {
		if err := p.cmd.Wait(); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		if err := p.startCommand(ctx, script); err != nil {
			return
		}
	}
}

func (p *process) Start(ctx context.Context, script string) error {
	if err := p.startCommand(ctx, script); err != nil {
		return err
	}
	go p.watch(ctx, script)
	return nil
}
