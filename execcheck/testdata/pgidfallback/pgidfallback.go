//go:build unix

// Package pgidfallback holds group kills whose else arm kills the direct
// child when syscall.Getpgid fails. Getpgid fails only when the child is
// gone (reaped): that kill reaches nothing, and the group kill decides.
package pgidfallback

import (
	"context"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// server is reduced from real code: an upstream server with its log as
// its output, waited for in a goroutine while it is stopped.
type server struct {
	cmd *exec.Cmd
	log io.Writer
}

func (s *server) start(argv []string) error {
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s.cmd.Stdout = s.log
	s.cmd.Stderr = s.log
	return s.cmd.Start() // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-pgid, syscall.SIGTERM\).*\) only while the direct child runs.*; the group kill by hand \(syscall.Kill\(-pgid, syscall.SIGKILL\)\) comes only when <-exited did not fire within the grace`
}

// terminate asks the group to stop.
func (s *server) terminate() error { // want terminate:`^execcheck\[kills: group:other\]$`
	pgid, err := syscall.Getpgid(s.cmd.Process.Pid)
	if err != nil {
		return err
	}
	return syscall.Kill(-pgid, syscall.SIGTERM)
}

// stop sends SIGTERM to the group and, if the server has not exited
// after the grace, SIGKILL; the fallback kill runs only once the server
// is gone. It was a hang ("a cancel kills only the direct child
// (s.cmd.Process.Kill())"). Both group kills find the group by Getpgid
// while a goroutine waits for the server, which reaps it once it exits:
// they come only while it runs, and argv[0] may be a launcher. The
// SIGKILL comes besides only if exited did not fire within the grace.
func (s *server) stop(grace time.Duration) {
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	_ = s.terminate()
	select {
	case <-time.After(grace):
		pgid, err := syscall.Getpgid(s.cmd.Process.Pid)
		if err == nil {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		} else {
			_ = s.cmd.Process.Kill()
		}
	case <-exited:
	}
}

// Build runs make, whose Cancel kills its group, with the same fallback
// written the other way round: ok. It was an orphan.
func Build(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "make", "-C", dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if pgid, err := syscall.Getpgid(cmd.Process.Pid); err != nil {
			return cmd.Process.Kill()
		} else {
			return syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Either kills the group or the child, as a flag says: the kill of the
// child reaches only it.
func Either(ctx context.Context, dir string, group bool) error {
	cmd := exec.CommandContext(ctx, "make", "-C", dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if group {
			return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		} else {
			return cmd.Process.Kill()
		}
	}
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
}

// OtherError falls back on the error of another call (a probe of the
// group), not of Getpgid: the kill of the child counts.
func OtherError(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "make", "-C", dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, 0); err == nil {
			return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		} else {
			return cmd.Process.Kill()
		}
	}
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
}

// transport is reduced from go-go-mcp's stdio client: Close interrupts
// the group and kills it only if the interrupt could not be sent, when
// the group is gone; the group gets the SIGINT alone.
type transport struct {
	cmd *exec.Cmd
}

func newTransport(command string, args ...string) (*transport, error) {
	cmd := exec.Command(command, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a cancel sends the group a signal that background jobs of sh -c ignore \(syscall.Kill\(-pgid, syscall.SIGINT\)\), and no SIGKILL follows`
		return nil, err
	}
	return &transport{cmd: cmd}, nil
}

func (t *transport) Close() error { // want Close:`^execcheck\[kills: group:INT\]$`
	pgid, err := syscall.Getpgid(t.cmd.Process.Pid)
	if err != nil {
		return t.cmd.Wait()
	}
	if err := syscall.Kill(-pgid, syscall.SIGINT); err != nil {
		if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
			return err
		}
	}
	return t.cmd.Wait()
}
