// Package orphan holds exec sites whose Wait is bounded but whose cancel
// reaches only the direct child.
package orphan

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"time"
)

// WaitDelayOnly returns in time, because WaitDelay closes the pipe, but
// leaves the descendants running.
func WaitDelayOnly(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 100 * time.Millisecond
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(WaitDelay = 100 \* time.Millisecond\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// Inherit gives the child the caller's stdout: no pipe, and no group.
func Inherit(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run() // want `^orphan: .*Wait returns in bounded time \(no output pipe\)`
}

// Interrupt signals the direct child on cancel, as a runner that lets a
// program clean up does.
func Interrupt(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cmd.Process.Signal\(os.Interrupt\)\)`
}

// Server is killed by Stop, another method, through a field.
type Server struct {
	cmd *exec.Cmd
}

func (s *Server) Start(bin string) error {
	s.cmd = exec.Command(bin, "serve")
	return s.cmd.Start() // want `^orphan: a cancel kills only the direct child \(s.cmd.Process.Kill\(\)\)`
}

func (s *Server) Stop() error { // want Stop:`^execcheck\[kills: child:KILL\]$`
	if err := s.cmd.Process.Kill(); err != nil {
		return err
	}
	return s.cmd.Wait()
}

// FirstLine reads one line of StdoutPipe, not to EOF: no hang, but the
// cancel reaches only the child.
func FirstLine(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: .*\(no output pipe\)`
		return "", err
	}
	defer cmd.Wait()
	return bufio.NewReader(out).ReadString('\n')
}

// interruptProcess takes the process, not the command.
func interruptProcess(p *os.Process) error { // want interruptProcess:`^execcheck\[pid param 0: child:INT\]$`
	return p.Signal(os.Interrupt)
}

// CLI interrupts the direct child through a helper that takes its
// process, and kills it if that fails.
func CLI(ctx context.Context, bin string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = nil
	cmd.Cancel = func() error {
		if err := interruptProcess(cmd.Process); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 10 * time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(p.Signal\(os.Interrupt\) \(in interruptProcess\)\)`
}
