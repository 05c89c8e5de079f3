//go:build unix

// Package setupkill holds kills that dispose of a command whose set-up
// failed after Start (kill, Wait, return the error), next to a watch of
// the context that kills the group. The disposal comes only on that
// error, before the watch is armed: it is not what a cancel does.
package setupkill

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os/exec"
	"syscall"
)

// group kills the command's group, or its direct child when the group
// is gone.
type group struct{}

func (group) kill(cmd *exec.Cmd) { // want kill:`^execcheck\[param 0: \[kills\(group:KILL, child:KILL\)\]\]$`
	if cmd == nil || cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}

func contain(*exec.Cmd) (group, error) { return group{}, nil }

// session is reduced from real code: the child is started in a group
// of its own; a goroutine kills the group when the context is done.
type session struct {
	cmd   *exec.Cmd
	g     group
	out   io.ReadCloser
	stopc chan struct{}
}

// spawn starts the child; if containing it fails, it kills the direct
// child and reaps it: the cleanup of a failed set-up.
func spawn(argv []string) (*exec.Cmd, group, io.ReadCloser, error) { // want spawn:`^execcheck\[result: \[made\(1\) group kills\(child:KILL\) runs:Start waited\] result 2: stdout of the command returned\]$`
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, group{}, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, group{}, nil, err
	}
	g, err := contain(cmd)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, group{}, nil, errors.New("contain: " + err.Error())
	}
	return cmd, g, out, nil
}

// Open starts a session whose cancel is the watch.
func Open(ctx context.Context, argv []string) (*session, error) {
	cmd, g, out, err := spawn(argv) // ok: the watch kills the group; the disposal in spawn is no cancel
	if err != nil {
		return nil, err
	}
	s := &session{cmd: cmd, g: g, out: out, stopc: make(chan struct{})}
	go s.watch(ctx)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
		}
	}()
	return s, nil
}

func (s *session) watch(ctx context.Context) {
	select {
	case <-ctx.Done():
		s.g.kill(s.cmd)
	case <-s.stopc:
	}
}

// Close waits for the child.
func (s *session) Close() error {
	close(s.stopc)
	return s.cmd.Wait()
}

// Unwatched disposes of its command the same way, but nothing else
// kills it: the disposal is all there is, and still counts.
func Unwatched(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(io.ReadAll\).*a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
		return err
	}
	if _, err := io.ReadFull(out, make([]byte, 1)); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	_, _ = io.ReadAll(out)
	return cmd.Wait()
}
