//go:build unix

// Package stateguard holds group kills by hand that come only while the
// program's state allows (reduced from real code): after Run, only if
// the context was done or only if Cancel ran; in a Close, only if the
// command has not finished within a grace. None of them reaches a
// descendant left behind by a direct child that exits at once.
package stateguard

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// SweepIfCancelled: the SIGKILL sweep after Run comes only if Cancel
// ran (it sets pgid) and the context is done; os/exec calls Cancel only
// while the direct child runs.
func SweepIfCancelled(ctx context.Context, prog string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	var pgid int
	cmd.Cancel = func() error {
		if id, err := syscall.Getpgid(cmd.Process.Pid); err == nil && id > 0 {
			pgid = id
			return syscall.Kill(-pgid, syscall.SIGTERM)
		}
		return cmd.Process.Signal(syscall.SIGTERM)
	}
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run() // want `^launcher: Cancel kills the group .*the group kill by hand \(syscall.Kill\(-pgid, syscall.SIGKILL\)\) comes only when ctx.Err\(\) != nil && pgid > 0`
	if ctx.Err() != nil && pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return stdout.String(), err
}

// IfDone: only when the context is done once Run returned.
func IfDone(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	err := cmd.Run() // want `^launcher: .*comes only when ctx.Err\(\) != nil \(the context was done when it was tested\)`
	if ctx.Err() != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return err
}

// IfCancelRan: only when a flag set in Cancel says it ran.
func IfCancelRan(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cancelled := false
	cmd.Cancel = func() error {
		cancelled = true
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = time.Second
	err := cmd.Run() // want `^launcher: .*comes only when cancelled \(set only in the function literal at stateguard.go:\d+: only if it ran\)`
	if cancelled {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return err
}

// Always: a sweep after every Run, whatever the state: it comes also
// after the direct child exited.
func Always(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return err
}

// PgidAfterStart: pgid set after Start, not in a closure: the sweep
// comes after every Wait.
func PgidAfterStart(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid := cmd.Process.Pid
	err := cmd.Wait()
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return err
}

// session is reduced from a CLI session: stdout read by a loop that
// waits for the command and then closes done.
type session struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	done   chan struct{}
}

// Open starts the session; Close kills the group only if done has not
// fired within each grace, so a direct child that exited leaves its
// group running; the session's context has the default Cancel.
func Open(ctx context.Context, prog string) (*session, error) {
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil { // want `^hang: .*a cancel kills only the direct child \(exec.CommandContext's default Cancel`
		cancel()
		return nil, err
	}
	s := &session{cmd: cmd, cancel: cancel, done: make(chan struct{})}
	go s.readLoop(stdout)
	return s, nil
}

func (s *session) readLoop(r io.Reader) {
	_, _ = io.Copy(io.Discard, r)
	_ = s.cmd.Wait()
	close(s.done)
}

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error { // want signalGroup:`^execcheck\[param 0: \[kills\(group:sig\(param 1\)\)\]\]$`
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, sig)
}

func (s *session) Close() error { // want Close:`^execcheck\[kills: group:other, group:KILL\]$`
	select {
	case <-s.done:
		return nil
	case <-time.After(8 * time.Second):
	}
	_ = signalGroup(s.cmd, syscall.SIGTERM)
	select {
	case <-s.done:
		return nil
	case <-time.After(5 * time.Second):
	}
	s.cancel()
	_ = signalGroup(s.cmd, syscall.SIGKILL)
	<-s.done
	return nil
}

// watched: a watcher that kills the group when the context is done,
// unless the command finished first, is the cancel: credited as before.
func Watched(ctx context.Context, prog string) error {
	cmd := exec.Command(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
			return
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}()
	err := cmd.Wait()
	close(done)
	return err
}

// Escalate: a stop that waits for the command within a grace and kills
// the group in either case (no return on done) reaches it after the
// direct child exited.
func Escalate(prog string) (func() error, error) { // want Escalate:`^execcheck\[returns a func that kills: group:other, group:KILL\]$`
	cmd := exec.Command(prog)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return func() error {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}, nil
}

// Child is reduced from openudon's processgroup (before its fix): the
// context's watch and Terminate kill the group only while done, closed
// once Wait returned, has not fired; Wait waits for nothing the direct
// child leaves (no pipe os/exec copies), so a program that exits at once
// leaves its group running.
type Child struct {
	command *exec.Cmd
	output  io.ReadCloser
	done    chan struct{}
	err     error
}

func StartInteractive(ctx context.Context, args []string) (*Child, error) {
	command := exec.Command(args[0], args[1:]...)
	command.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	output, err := command.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := command.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-command.Process.Pid, syscall.SIGKILL\) \(in terminate\)\) only (until Wait returns|when <-child.done had not fired)`
		return nil, err
	}
	child := &Child{command: command, output: output, done: make(chan struct{})}
	go func() {
		child.err = command.Wait()
		close(child.done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			child.Terminate()
		case <-child.done:
		}
	}()
	return child, nil
}

// Terminate kills the group unless Wait already returned.
func (child *Child) Terminate() error { // want Terminate:`^execcheck\[kills: group:KILL, child:KILL\]$`
	select {
	case <-child.done:
		return child.err
	default:
	}
	terminate(child.command)
	select {
	case <-child.done:
		return child.err
	case <-time.After(5 * time.Second):
		return nil
	}
}

func terminate(command *exec.Cmd) { // want terminate:`^execcheck\[param 0: \[kills\(group:KILL, child:KILL\)\]\]$`
	_ = syscall.Kill(-command.Process.Pid, syscall.SIGKILL)
	_ = command.Process.Kill()
}

// ChildLogged is Child with its stderr copied to a writer: Wait waits
// for that pipe's EOF, and the group kill, guarded as in Terminate,
// still comes only while Wait has not returned; what a program that
// exits at once leaves, holding no pipe, is not reached.
func ChildLogged(args []string, stderr io.Writer) (*Child, error) {
	command := exec.Command(args[0], args[1:]...)
	command.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	command.Stderr = stderr
	if err := command.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-command.Process.Pid, syscall.SIGKILL\) \(in terminate\)\) only when <-child.done had not fired .*, that is while Wait has not returned, and the program \(args\[0\]\) is not a constant`
		return nil, err
	}
	child := &Child{command: command, done: make(chan struct{})}
	go func() {
		child.err = command.Wait()
		close(child.done)
	}()
	return child, nil
}

// poller checks a stop channel, not the command's end, before it kills:
// the kill is no state-guarded one.
type poller struct {
	stop chan struct{}
	cmd  *exec.Cmd
}

func (p *poller) run(script string) error {
	p.cmd = exec.Command("sh", "-c", script)
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		return err
	}
	return p.cmd.Wait()
}

func (p *poller) Kill() {
	select {
	case <-p.stop:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}

// managed is reduced from viamrobotics/goutils' managedProcess (after
// its fix): Stop interrupts the direct child and kills the group only
// on the timer's arm, beside the arm of managingCh, which manage closes
// once Wait returned. A configured program that exits on the interrupt
// leaves its group running.
type managed struct {
	name       string
	cmd        *exec.Cmd
	managingCh chan struct{}
	restarted  bool
}

func (p *managed) Start() error {
	cmd := exec.Command(p.name)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-p.cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(it comes only if <-p.managingCh did not fire within the grace \(the select at stateguard.go:\d+ waits for it on another arm\)\).*the program \(p.name\) is not a constant`
		return err
	}
	p.cmd = cmd
	go p.manage(out)
	return nil
}

func (p *managed) manage(out io.Reader) {
	defer func() {
		if !p.restarted {
			close(p.managingCh)
		}
	}()
	go io.Copy(io.Discard, out)
	_ = p.cmd.Wait()
}

func (p *managed) Stop() error { // want Stop:`^execcheck\[kills: child:INT, group:KILL\]$`
	_ = p.cmd.Process.Signal(os.Interrupt)
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	select {
	case <-timer.C:
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	case <-p.managingCh:
	}
	<-p.managingCh
	return nil
}

// sweeper kills the group on the timer's arm beside a stop channel's,
// which tells nothing of the command's end: the kill is credited.
type sweeper struct {
	cmd  *exec.Cmd
	stop chan struct{}
}

func (s *sweeper) Run() error {
	s.cmd = exec.Command("make", "serve")
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return s.cmd.Run()
}

func (s *sweeper) Stop() {
	select {
	case <-time.After(time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	case <-s.stop:
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Timeout is reduced from mimixbox's timeout applet (before its fix):
// the timer's arm is the run's own timeout, the cancel itself, and it
// signals only the direct child while Wait waits for the copied output.
func Timeout(out io.Writer, d time.Duration, name string) error {
	cmd := exec.Command(name)
	cmd.Stdout = out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is an io.Writer .*a cancel kills only the direct child \(cmd.Process.Signal\(syscall.SIGTERM\)`
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-time.After(d):
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-done
		return nil
	case err := <-done:
		return err
	}
}

// TimeoutGroup is Timeout after the fix: the timeout signals the group,
// and escalates to SIGKILL on a grace. Both come whenever Wait, which
// waits for the pipe, has not returned, and no cancel comes after it:
// the timer is the run's own.
func TimeoutGroup(out io.Writer, d, grace time.Duration, name string) error {
	cmd := exec.Command(name)
	cmd.Stdout = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-time.After(d):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(grace):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		return nil
	case err := <-done:
		return err
	}
}

// claudeSession is reduced from llmkit's claude session (after its fix): Close
// cancels the context (the default Cancel kills the direct child), then
// kills the group only if done, closed once Wait returned after the
// reads, has not fired within a grace. The holders of the pipe are
// killed; what a configured program leaves holding nothing is not.
type claudeSession struct {
	path   string
	stdout io.Reader
	cmd    *exec.Cmd
	cancel context.CancelFunc
	done   chan struct{}
}

func (s *claudeSession) start() error {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.cmd = exec.CommandContext(ctx, s.path)
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := s.cmd.Start(); err != nil { // want `^launcher: the cancel kills the direct child, and then a kill by hand reaches the group \(syscall.Kill\(-s.cmd.Process.Pid, syscall.SIGKILL\)\) only when <-s.done did not fire within the grace .*the program \(s.path\) is not a constant`
		return err
	}
	s.stdout = out
	go s.read()
	return nil
}

func (s *claudeSession) read() {
	defer close(s.done)
	sc := bufio.NewScanner(s.stdout)
	for sc.Scan() {
	}
	_ = s.cmd.Wait()
}

func (s *claudeSession) Close() error { // want Close:`^execcheck\[kills: group:KILL\]$`
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.cancel()
		select {
		case <-s.done:
		case <-time.After(2 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	return nil
}
