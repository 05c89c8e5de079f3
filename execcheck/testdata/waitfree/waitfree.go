//go:build unix

// Package waitfree holds commands whose Wait no call blocks on (reduced
// from a test harness that starts a server and never waits for it, and
// from envtest's process state, whose Wait runs in a goroutine every
// waiter of which has a timeout): a descendant holding the output pipe
// blocks no call, and a cancel that reaches only the direct child
// leaves an orphan, not a hang.
package waitfree

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"syscall"
	"time"
)

type command struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
}

// start: the command is never waited for; stop kills sh alone.
func (c *command) start(line string) error {
	c.cmd = exec.Command("/bin/sh", "-c", line)
	c.cmd.Stdout = &c.stdout
	return c.cmd.Start() // want `^orphan: a cancel kills only the direct child \(c.cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait is never called: nothing waits for os/exec's copy of the output\)`
}

func (c *command) stop() { c.cmd.Process.Kill() }

// State is a server under test.
type State struct {
	cmd      *exec.Cmd
	waitDone chan struct{}
	timeout  time.Duration
}

// Start: Wait runs in a goroutine; Start's and Stop's waits for it time
// out.
func (s *State) Start(path string, stdout io.Writer) error {
	s.cmd = exec.Command(path)
	s.cmd.Stdout = stdout
	s.waitDone = make(chan struct{})
	if err := s.cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(s.cmd.Process.Signal\(syscall.SIGTERM\)\); Wait returns in bounded time \(cmd.Wait runs only in a goroutine, and every wait for it has a timeout or a default \(waitfree.go:\d+, waitfree.go:\d+\): no call blocks on os/exec's copy of the output\)`
		return err
	}
	go func() {
		defer close(s.waitDone)
		s.cmd.Wait()
	}()
	select {
	case <-s.waitDone:
		return errors.New("exited")
	case <-time.After(s.timeout):
		return nil
	}
}

func (s *State) Stop() error { // want Stop:`execcheck\[kills: child:other, child:KILL\]`
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.waitDone:
		return nil
	case <-time.After(s.timeout):
		s.cmd.Process.Signal(syscall.SIGKILL)
		return errors.New("timeout")
	}
}

// Runner waits for its goroutine without a timeout after the kill: that
// wait lasts while a descendant holds the pipe.
type Runner struct {
	cmd  *exec.Cmd
	done chan error
}

func (r *Runner) Start(path string, stdout io.Writer) error {
	r.cmd = exec.Command(path)
	r.cmd.Stdout = stdout
	r.done = make(chan error, 1)
	if err := r.cmd.Start(); err != nil { // want `^hang: stdout is an io.Writer \(stdout\).*; cmd.Wait runs only in a goroutine, and its signal \(done\) is received with no timeout \(waitfree.go:\d+\); fix:`
		return err
	}
	go func() { r.done <- r.cmd.Wait() }()
	return nil
}

func (r *Runner) Stop() error { // want Stop:`execcheck\[kills: child:KILL\]`
	r.cmd.Process.Kill()
	return <-r.done
}

// Server keeps its command in an exported field, as envtest's process
// state does, and its timer in a variable. Another package's Wait on
// Cmd returns "Wait was already called" once the goroutine's has reaped
// the child, so no call there blocks on the pipe either.
type Server struct {
	Cmd      *exec.Cmd
	waitDone chan struct{}
	Timeout  time.Duration
}

func (s *Server) Start(path string, stdout io.Writer) error {
	s.Cmd = exec.Command(path)
	s.Cmd.Stdout = stdout
	s.waitDone = make(chan struct{})
	if err := s.Cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(s.Cmd.Process.Signal\(syscall.SIGKILL\)\); Wait returns in bounded time \(cmd.Wait runs only in a goroutine, and every wait for it has a timeout or a default \(waitfree.go:\d+\): no call blocks`
		return err
	}
	go func() {
		defer close(s.waitDone)
		s.Cmd.Wait()
	}()
	return nil
}

func (s *Server) Stop() error { // want Stop:`execcheck\[kills: child:KILL\]`
	timedOut := time.After(s.Timeout)
	s.Cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-s.waitDone:
		return nil
	case <-timedOut:
		return errors.New("timeout")
	}
}

// Child hands the goroutine's signal to callers in other packages
// (ExitCh): one of them may wait on it without a bound, while a
// descendant holds the pipe.
type Child struct {
	cmd    *exec.Cmd
	exitCh chan int
}

func (c *Child) Start(path string, stdout io.Writer) error {
	c.cmd = exec.Command(path)
	c.cmd.Stdout = stdout
	if err := c.cmd.Start(); err != nil { // want `^hang: stdout is an io.Writer \(stdout\).*; cmd.Wait runs only in a goroutine, and its signal \(exitCh\) goes where execcheck does not read its receivers \(waitfree.go:\d+\): one may wait with no timeout; fix:`
		return err
	}
	exitCh := make(chan int, 1)
	go func() {
		c.cmd.Wait()
		close(exitCh)
	}()
	c.exitCh = exitCh
	return nil
}

// ExitCh is closed when the child has exited.
func (c *Child) ExitCh() <-chan int { return c.exitCh }

func (c *Child) Stop() {
	c.cmd.Process.Kill()
}

// started is reduced from kilroy's startBackgroundCommand: Wait's
// channel is kept in a field, and every receive of the field has a
// timeout or a default.
type started struct {
	cmd    *exec.Cmd
	waitCh <-chan error
}

func startLogged(line string, out io.Writer) (*started, error) {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Stdout = out
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(p.cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait runs only in a goroutine, and every wait for it has a timeout or a default \(waitfree.go:\d+\)`
		return nil, err
	}
	waitCh := make(chan error, 1)
	go func() {
		waitCh <- cmd.Wait()
		close(waitCh)
	}()
	return &started{cmd: cmd, waitCh: waitCh}, nil
}

func (p *started) terminate(grace time.Duration) {
	_ = p.cmd.Process.Kill()
	select {
	case <-p.waitCh:
	case <-time.After(grace):
	}
}

// tb is the part of testing.TB the harness uses.
type tb interface {
	Cleanup(func())
	Errorf(format string, args ...any)
}

// runServer is kcp's e2e framework before its fix: a goroutine waits
// and then closes shutdownComplete through a local cleanup func, which
// the first cleanup receives with no timeout. The SIGTERM reaches go
// run only, the server it built holds the pipe: the cleanup hangs.
func runServer(t tb, argv []string, log *bytes.Buffer) error {
	shutdownComplete := make(chan struct{})
	cleanup := func() {
		close(shutdownComplete)
	}
	t.Cleanup(func() {
		<-shutdownComplete
	})
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = log
	cmd.Stderr = log
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(cmd.Process.Signal\(syscall.SIGTERM\)\)`
		cleanup()
		return err
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	})
	go func() {
		defer cleanup()
		if err := cmd.Wait(); err != nil {
			t.Errorf("server: %v", err)
		}
	}()
	return nil
}

type daemon struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan struct{}
}

// start: the goroutine that waits ends by a method that closes done,
// which stop receives with no timeout.
func (d *daemon) start(line string) error {
	d.cmd = exec.Command("sh", "-c", line)
	d.cmd.Stdout = &d.out
	d.done = make(chan struct{})
	if err := d.cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(d.cmd.Process.Kill\(\)\).*its signal \(done\) is received with no timeout`
		return err
	}
	go func() {
		_ = d.cmd.Wait()
		d.finish()
	}()
	return nil
}

func (d *daemon) finish() { close(d.done) }

func (d *daemon) stop() {
	_ = d.cmd.Process.Kill()
	<-d.done
}

// probe is ddev's WSL probe: the pipe is read in a goroutine nothing
// joins, every receive of its lines has a timeout, and the command is
// killed, never waited for. No call blocks on the reads.
func probe(script string) (string, error) {
	cmd := exec.Command("sh", "-c", script)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait is never called, and the pipe is read only in goroutines every wait for which has a timeout or a default \(waitfree.go:\d+\): no call blocks on the reads\)`
		return "", err
	}
	defer func() { _ = cmd.Process.Kill() }()
	lines := make(chan string, 10)
	go func() {
		buf := make([]byte, 1024)
		for {
			n, err := stdout.Read(buf)
			if n > 0 {
				lines <- string(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case l := <-lines:
		return l, nil
	case <-time.After(10 * time.Second):
		return "", errors.New("timed out")
	}
}

// drained: the same reads, but the caller waits for their end with no
// timeout: a descendant holding the pipe keeps it waiting.
func drained(script string) (string, error) {
	cmd := exec.Command("sh", "-c", script)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return "", err
	}
	defer func() { _ = cmd.Process.Kill() }()
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(stdout)
		done <- string(b)
	}()
	return <-done, nil
}

// RunReaped is devspace-go's runCommand: the goroutine's signal is
// received in a select with a timer, then handed to a helper of the
// package that waits for it with time.After: every wait is bounded.
func RunReaped(ctx context.Context, name string, d time.Duration) string {
	cmd := exec.Command(name)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait runs only in a goroutine, and every wait for it has a timeout or a default \(waitfree.go:\d+, waitfree.go:\d+\)`
		return ""
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		reap(done, d)
	}
	return buf.String()
}

func reap(done <-chan error, d time.Duration) {
	select {
	case <-done:
	case <-time.After(d):
	}
}

// RunDrained hands the signal to a helper that receives it with no
// timeout: that receive waits for the copy.
func RunDrained(ctx context.Context, name string) string {
	cmd := exec.Command(name)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(cmd.Process.Kill\(\)\).*its signal \(done\) is received with no timeout \(waitfree.go:\d+\)`
		return ""
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		drain(done)
	}
	return buf.String()
}

func drain(done <-chan error) { <-done }

// RunRetried is k0s's supervisor before its fix: on the cancel, a loop
// that signals the direct child and waits for the goroutine's signal
// with a timeout that only goes round the loop again: the receive waits
// for the copy.
func RunRetried(ctx context.Context, name string, d time.Duration) string {
	cmd := exec.Command(name)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(cmd.Process.Signal\(syscall.SIGTERM\)\).*its signal \(done\) is received in a select whose timeout only goes round its loop again \(waitfree.go:\d+\)`
		return ""
	}
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	select {
	case <-ctx.Done():
		for {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-time.After(d):
				continue
			case <-done:
				return buf.String()
			}
		}
	case <-done:
		return buf.String()
	}
}

// RunGivenUp leaves the loop after its tries: bounded.
func RunGivenUp(ctx context.Context, name string, d time.Duration) string {
	cmd := exec.Command(name)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Signal\(syscall.SIGTERM\)\); Wait returns in bounded time`
		return ""
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	<-ctx.Done()
	for tries := 0; ; tries++ {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-time.After(d):
			if tries == 3 {
				return buf.String()
			}
			continue
		case <-done:
			return buf.String()
		}
	}
}

// Supervisor is k0s's after its fix: a goroutine starts the command and
// hands it to waitQuit, which waits for it in a goroutine of its own and
// bounds every receive of that one's signal. Stop's receive of done
// waits for the supervising goroutine, not for the Wait.
type Supervisor struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	done   chan struct{}
}

func (s *Supervisor) Supervise(name string) error {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	started := make(chan error)
	go func() {
		defer close(s.done)
		var buf bytes.Buffer
		s.cmd = exec.Command(name)
		s.cmd.Stdout = &buf
		if err := s.cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\) \(in waitQuit\)\); Wait returns in bounded time \(cmd.Wait \(in waitQuit\) runs only in a goroutine, and every wait for it has a timeout or a default \(waitfree.go:\d+, waitfree.go:\d+\)`
			started <- err
			return
		}
		started <- nil
		s.waitQuit(ctx, s.cmd)
	}()
	return <-started
}

func (s *Supervisor) waitQuit(ctx context.Context, cmd *exec.Cmd) { // want waitQuit:`^execcheck\[param 1: \[kills\(child:KILL\) waited\]\]$`
	result := make(chan error, 1)
	go func() { result <- cmd.Wait() }()
	select {
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		select {
		case <-result:
		case <-time.After(time.Second):
		}
	case <-result:
	}
}

// Stop cancels and waits for the supervising goroutine.
func (s *Supervisor) Stop() {
	s.cancel()
	<-s.done
}
