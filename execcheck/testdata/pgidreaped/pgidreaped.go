//go:build unix

// Package pgidreaped kills a command's group found by syscall.Getpgid of
// its pid, reduced from arduino/go-paths-helper: while Wait reaps the
// direct child, the lookup fails once it exited, so the kill reaches
// the group only while the child runs.
package pgidreaped

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func killGroup(cmd *exec.Cmd) error { // want killGroup:`^execcheck\[param 0: \[kills\(group:KILL\)\]\]$`
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	if err != nil {
		return err
	}
	return syscall.Kill(-pgid, syscall.SIGKILL)
}

// waited: Wait reaps the child, so a cancel after it exited finds no
// group, and the pipe a descendant holds keeps Wait waiting.
func waited(ctx context.Context, args []string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\): a kill by hand reaches the group \(syscall.Kill\(-pgid, syscall.SIGKILL\) \(in killGroup\)\) only while the direct child runs: it finds the group by syscall.Getpgid of the child's pid, which fails once Wait has reaped it`
		return "", err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			killGroup(cmd)
		case <-done:
		}
	}()
	err := cmd.Wait()
	return out.String(), err
}

// byPid kills -pid itself: the group lives while any member does.
func byPid(ctx context.Context, args []string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-done:
		}
	}()
	err := cmd.Wait()
	return out.String(), err
}

// server never waits for its child, which stays a zombie once it
// exits: its pid stays the group's, and Getpgid finds it.
type server struct{ cmd *exec.Cmd }

func (s *server) start(args []string, log *os.File) error {
	s.cmd = exec.Command(args[0], args[1:]...)
	s.cmd.Stdout = log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return s.cmd.Start()
}

func (s *server) Stop() error { return killGroup(s.cmd) } // want Stop:`^execcheck\[kills: group:KILL\]$`

// killThenReap kills the group, then reaps the child, as air's killCmd
// does: nothing reaped it before the kill, so Getpgid finds its group.
func killThenReap(cmd *exec.Cmd) { // want killThenReap:`^execcheck\[param 0: \[kills\(group:KILL\) procwait\]\]$`
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	if err == nil {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	cmd.Process.Wait()
}

func rebuild(prog string, restart <-chan struct{}) error {
	cmd := exec.Command(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	<-restart
	killThenReap(cmd)
	return nil
}

// noGroup kills "the group" of a child that has none of its own: the
// test's group, as it were; judged as the other kills are.
func noGroup(ctx context.Context, args []string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(syscall.Kill\(-pgid, syscall.SIGKILL\) \(in killGroup\), but the command has no process group of its own`
		return "", err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			killGroup(cmd)
		case <-done:
		}
	}()
	err := cmd.Wait()
	return out.String(), err
}

// readAndCopied reads stdout before Wait, while the child is unreaped
// and Getpgid finds its group; the stderr os/exec copies is waited for
// after Wait reaped it, which the kill misses: the reason names it.
func readAndCopied(ctx context.Context, args []string) ([]byte, error) {
	var errb bytes.Buffer
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stderr is a \*bytes.Buffer and nothing bounds Wait: a kill by hand reaches the group \(syscall.Kill\(-pgid, syscall.SIGKILL\) \(in killGroup\)\) only while the direct child runs`
		return nil, err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			killGroup(cmd)
		case <-done:
		}
	}()
	b, _ := io.ReadAll(out)
	return b, cmd.Wait()
}

// killThenChild is kubectl-ai's killProcessGroup: the group found by
// Getpgid, then the child itself, which adds nothing to it.
func killThenChild(cmd *exec.Cmd) { // want killThenChild:`^execcheck\[param 0: \[kills\(group:KILL, child:KILL\)\]\]$`
	if pgid, err := syscall.Getpgid(cmd.Process.Pid); err == nil {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	_ = cmd.Process.Kill()
}

// selected waits in a goroutine, at most 5s after a cancel, and kills
// through killThenChild on it: once the default Cancel's kill is reaped, or the agent exited
// by itself, the lookup finds no group.
func selected(ctx context.Context, bin string, log io.Writer) error {
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdout = io.MultiWriter(os.Stdout, log)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-pgid, syscall.SIGKILL\) \(in killThenChild\)\) only while the direct child runs`
		return err
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err := <-waitErr:
		return err
	case <-ctx.Done():
		killThenChild(cmd)
		select {
		case <-waitErr:
		case <-time.After(5 * time.Second):
		}
		return ctx.Err()
	}
}

type app struct{ cmd *exec.Cmd }

// readThenWait is gokcehan/lf's '%' run: a goroutine reads the pipe to
// EOF and only then waits, so the child stays an unreaped zombie whose
// pid names the group while anything holds the pipe.
func (a *app) readThenWait(script string) error {
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	a.cmd = cmd
	go func() {
		_, _ = io.Copy(io.Discard, out)
		_ = cmd.Wait()
	}()
	return nil
}

func (a *app) interrupt() { _ = killGroup(a.cmd) }

// capturePgid is reduced from pipelock's captureChildPgid: the group,
// looked up once right after Start, while the child is not reaped.
func capturePgid(pid int) int { // want capturePgid:`^execcheck\[result 0: pid of param 0\]$`
	if got, err := syscall.Getpgid(pid); err == nil {
		return got
	}
	return pid
}

func signalTerm(pgid int) { // want signalTerm:`^execcheck\[pid param 0: group:other\]$`
	if pgid <= 0 {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
}

// RunProxy keeps the group it captured and signals it on the cancel
// until the run returns: after the direct child exited too, while the
// reads wait for the pipe's EOF.
func RunProxy(ctx context.Context, command []string, out io.Writer) error {
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	childPgid := capturePgid(cmd.Process.Pid)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			signalTerm(childPgid)
		case <-done:
		}
	}()
	defer close(done)
	if _, err := io.Copy(out, stdout); err != nil {
		return err
	}
	return cmd.Wait()
}
