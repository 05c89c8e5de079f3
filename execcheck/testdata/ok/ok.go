//go:build unix

// Package ok holds exec sites that stop on cancel, or have no cancel.
package ok

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// PolicyRun is the fix.
func PolicyRun(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cancelpolicy.Run(ctx, cmd)
	return out.Bytes(), err
}

// PolicyStart starts with cancelpolicy.Start and waits with its Wait; the
// command comes from exec.Command, which Start takes too.
func PolicyStart(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.Graceful(syscall.SIGTERM, time.Second))
	if err != nil {
		return err
	}
	return s.Wait()
}

// NoCancel has no context and no kill: nothing stops it early.
func NoCancel(argv []string) ([]byte, error) {
	return exec.Command(argv[0], argv[1:]...).CombinedOutput()
}

// Background has a context that is never done.
func Background(argv []string) error {
	cmd := exec.CommandContext(context.Background(), argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	return cmd.Run()
}

// NotALauncher is the hand-written fix for a program that waits for its
// children: go test.
func NotALauncher(ctx context.Context, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "test", pkg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 2 * time.Second
	return cmd.Run()
}

// Foreground runs a script with no background job.
func Foreground(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "make build && make test 2>&1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// WaitsForItsJob runs the waiting shape: the shell waits for its
// background job, so the group kill in Cancel finds it.
func WaitsForItsJob(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "/bin/sleep 20 & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Graceful sends SIGTERM to the group, then SIGKILL after a grace.
func Graceful(ctx context.Context, bin string) error {
	cmd := exec.CommandContext(ctx, "terraform", "apply")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		pid := cmd.Process.Pid
		time.AfterFunc(5*time.Second, func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
		return syscall.Kill(-pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = 10 * time.Second
	return cmd.Run()
}

// WatchGroup watches the context by hand and kills the group: this kill
// comes also after the direct child exited.
func WatchGroup(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid := cmd.Process.Pid
	stop := context.AfterFunc(ctx, func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	defer stop()
	return cmd.Wait()
}

// Sleep is killed on cancel, and sleep starts no process.
func Sleep(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "/bin/sleep", "10").Output()
}

// Probe signals 0 only to ask whether the child is there.
func Probe(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return err
	}
	_ = cmd.Process.Signal(syscall.Signal(0))
	return cmd.Wait()
}

// Terminate stops the group by hand with SIGTERM, as go-cmd's Stop does:
// ok, with the caveat that no SIGKILL follows.
type Terminate struct {
	cmd *exec.Cmd
	pid int
}

func (t *Terminate) Start(argv []string) error {
	t.cmd = exec.Command(argv[0], argv[1:]...)
	t.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := t.cmd.Start(); err != nil {
		return err
	}
	t.pid = t.cmd.Process.Pid
	return nil
}

func (t *Terminate) Stop() error { // want Stop:`^execcheck\[kills: group:other\]$`
	return syscall.Kill(-t.pid, syscall.SIGTERM)
}

// GroupKillMethodValue is NotALauncher's command run through a method
// value: the method value changes nothing.
func GroupKillMethodValue(ctx context.Context, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "test", pkg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 2 * time.Second
	run := cmd.Run
	return run()
}
