//go:build unix

// Package sigassert holds kills whose signal is an os.Signal asserted to
// syscall.Signal for syscall.Kill, reduced from consul-template's
// Child.signal and exo's gracefullyShutdown: the signal is the argument
// at each call of the helper, as with a conversion.
package sigassert

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

type child struct{ cmd *exec.Cmd }

// signal is consul-template's: the comma-ok assertion.
func (c *child) signal(s os.Signal) error {
	sig, ok := s.(syscall.Signal)
	if !ok {
		return fmt.Errorf("bad signal: %s", s)
	}
	return syscall.Kill(-c.cmd.Process.Pid, sig)
}

// signalGroup is exo's: the assertion alone.
func signalGroup(cmd *exec.Cmd, s os.Signal) { // want signalGroup:`^execcheck\[param 0: \[kills\(group:sig\(param 1\)\)\]\]$`
	sysSig := s.(syscall.Signal)
	_ = syscall.Kill(-cmd.Process.Pid, sysSig)
}

func newChild(script string) *child {
	c := &child{cmd: exec.Command("/bin/sh", "-c", script)}
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}

// Kill sends the group a SIGKILL through the helper on the cancel: ok.
func Kill(ctx context.Context, script string) (string, error) {
	c := newChild(script)
	var out bytes.Buffer
	c.cmd.Stdout = &out
	if err := c.cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-ctx.Done():
		_ = c.signal(os.Kill)
		return out.String(), <-done
	case err := <-done:
		return out.String(), err
	}
}

// Interrupt sends the group a SIGINT, which background jobs of sh -c
// ignore, and no SIGKILL follows: launcher.
func Interrupt(ctx context.Context, script string) error {
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a cancel sends the group a signal that background jobs of sh -c ignore \(syscall\.Kill\(-cmd\.Process\.Pid, sysSig\) \(in signalGroup\)\), and no SIGKILL follows`
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-ctx.Done():
		signalGroup(cmd, os.Interrupt)
		return <-done
	case err := <-done:
		return err
	}
}
