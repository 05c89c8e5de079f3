//go:build unix

// Package watch holds group kills by hand next to exec.CommandContext's
// default Cancel: when the kill watches the same cancel (a goroutine on
// ctx.Done, context.AfterFunc, a kill right before a context's cancel
// func), the default Cancel's kill of the direct child only comes with
// it, and the group is killed, also after the direct child exited.
package watch

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func command(ctx context.Context, argv []string) *exec.Cmd { // want command:`^execcheck\[result: \[made\(1\) group waitdelay\]\]$`
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	return cmd
}

// Watched is reduced from real code: a goroutine kills the group when
// the context is done. It was an orphan: only the default Cancel
// counted. The watch ends with the deferred close once Wait returns,
// which, with no pipe, is when the direct child exits: a launcher
// (watch_end.go).
func Watched(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with defer close\(done\)\)`
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-done:
		}
	}()
	return cmd.Wait()
}

// AfterFunc kills the group in context.AfterFunc.
func AfterFunc(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	if err := cmd.Start(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	defer stop()
	return cmd.Wait()
}

// op is reduced from real code: Cancel kills the group through the pid
// it keeps, then cancels the command's context.
type op struct {
	pid    int
	cancel context.CancelFunc
}

func startOp(argv []string) (*op, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := command(ctx, argv)
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	o := &op{pid: cmd.Process.Pid, cancel: cancel}
	go func() {
		_ = cmd.Wait()
		cancel()
	}()
	return o, nil
}

func (o *op) Cancel() {
	_ = syscall.Kill(-o.pid, syscall.SIGKILL)
	o.cancel()
}

// server's Stop kills the group, but the context's cancel does not stop
// it: the default Cancel kills the direct child alone.
type server struct{ cmd *exec.Cmd }

func (s *server) start(ctx context.Context, argv []string) error {
	s.cmd = command(ctx, argv)
	return s.cmd.Start() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
}

func (s *server) Stop() error { return syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL) } // want Stop:`^execcheck\[kills: group:KILL\]$`

// Late watches the context on another arm: no watch.
func Late(ctx context.Context, argv []string, stop <-chan struct{}) error {
	cmd := command(ctx, argv)
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child`
		return err
	}
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	return cmd.Wait()
}

func signalGroup(p *os.Process, sig syscall.Signal) { // want signalGroup:`^execcheck\[pid param 0: group:sig\(param 1\), child:sig\(param 1\)\]$`
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		_ = p.Signal(sig)
	}
}

// QuietCancel is reduced from an agent daemon: Cancel kills nothing,
// leaving the cancel to a watch that signals the group, SIGKILLs it if
// it outlives a grace, then closes the pipe; the watch ends only when
// Wait returns, after the reads. Was an orphan: "Cancel kills nothing".
func QuietCancel(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	cmd.Cancel = func() error { return nil }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	procDone := make(chan struct{})
	go func() {
		select {
		case <-procDone:
			return
		case <-ctx.Done():
		}
		signalGroup(cmd.Process, syscall.SIGTERM)
		if syscall.Kill(-cmd.Process.Pid, 0) == nil {
			signalGroup(cmd.Process, syscall.SIGKILL)
		}
		_ = stdout.Close()
	}()
	_, _ = io.Copy(os.Stdout, stdout)
	err = cmd.Wait()
	close(procDone)
	return err
}

// QuietCancelNoWatch: the same Cancel with no watch: a cancel kills
// nothing, and WaitDelay's kill reaches only the direct child.
func QuietCancelNoWatch(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	cmd.Cancel = func() error { return nil }
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(Cancel = func\(\) \.\.\. kills nothing\)`
}

// WatchCloses is reduced from the same daemon's other agents: the watch
// ends when Wait returns, and Wait comes after the reads of stdout,
// which end early only by the watch's own Close after its kills: the
// watch lasts as long as any descendant holds the pipe. Was a launcher.
func WatchCloses(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	cmd.Cancel = func() error { return nil }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	procDone := make(chan struct{})
	go func() {
		select {
		case <-procDone:
			return
		case <-ctx.Done():
		}
		signalGroup(cmd.Process, syscall.SIGTERM)
		select {
		case <-procDone:
		case <-time.After(5 * time.Second):
			signalGroup(cmd.Process, syscall.SIGKILL)
		}
		_ = stdout.Close()
	}()
	errc := make(chan error, 1)
	go func() {
		_, _ = io.Copy(os.Stdout, stdout)
		errc <- cmd.Wait()
		close(procDone)
	}()
	return <-errc
}
