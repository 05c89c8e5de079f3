//go:build unix

// Package jobpipe holds group signals that background jobs of sh -c
// ignore (SIGINT) with no SIGKILL after them, reduced from a dev tool's
// build step: where os/exec copies the output and nothing bounds Wait,
// the jobs keep the pipe and Wait waits for them (hang); with a
// WaitDelay or an *os.File, Wait returns and they keep running
// (launcher).
package jobpipe

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func signalGroup(cmd *exec.Cmd, s os.Signal) error { // want signalGroup:`^execcheck\[param 0: \[kills\(group:sig\(param 1\)\)\]\]$`
	return syscall.Kill(-cmd.Process.Pid, s.(syscall.Signal))
}

// Build interrupts the group in Cancel and runs the script through a
// helper that collects its output in a buffer: hang.
func Build(ctx context.Context, script string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return signalGroup(cmd, os.Interrupt) }
	return run(cmd) // want `^hang: stdout is a \*bytes\.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel sends the group a signal that background jobs of sh -c ignore \(syscall\.Kill\(-cmd\.Process\.Pid, s\.\(syscall\.Signal\)\) \(in signalGroup\)\), and no SIGKILL follows: Wait lasts as long as any of them holds the pipe`
}

func run(cmd *exec.Cmd) (string, error) { // want run:`^execcheck\[param 0: \[copypipe runs:Run\]\]$`
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}

// Output interrupts the group by hand on the cancel and collects the
// output with Output: hang.
func Output(ctx context.Context, script string) ([]byte, error) {
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) })
	defer stop()
	return cmd.Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait \(no WaitDelay\); a cancel sends the group a signal that background jobs of sh -c ignore`
}

// Bounded is Build with a WaitDelay: Wait returns, the jobs run on:
// launcher.
func Bounded(ctx context.Context, script string) (string, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return signalGroup(cmd, os.Interrupt) }
	cmd.WaitDelay = time.Second
	return run(cmd) // want `^launcher: a cancel sends the group a signal that background jobs of sh -c ignore`
}

// Inherit gives the child the parent's files: os/exec copies nothing,
// Wait returns, the jobs run on: launcher.
func Inherit(ctx context.Context, script string) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return signalGroup(cmd, os.Interrupt) }
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run() // want `^launcher: a cancel sends the group a signal that background jobs of sh -c ignore`
}
