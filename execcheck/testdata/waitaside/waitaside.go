//go:build unix

// Package waitaside holds output pipes read until EOF while cmd.Wait
// runs in a goroutine of its own, apart from the reads (reduced from a
// stdio transport). Wait returns once the direct child exits and then
// closes the pipe, which ends the reads: nothing hangs, but a cancel
// that kills only the direct child leaves its descendants running.
package waitaside

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
)

type transport struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	dec    *json.Decoder
	done   chan error
}

// Start is the transport's start: the reads and the Wait are two
// goroutines, neither waiting for the other.
func (t *transport) Start(ctx context.Context, command string, args ...string) error {
	cmd := exec.CommandContext(ctx, command, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Wait \(waitaside.go:\d+\) runs in a goroutine apart from the reads of the pipe: it closes the pipe once the direct child exits\)`
		return err
	}
	t.cmd, t.stdout, t.dec = cmd, stdout, json.NewDecoder(stdout)
	t.done = make(chan error, 1)
	go t.readLoop()
	go t.watch()
	return nil
}

func (t *transport) readLoop() {
	for {
		var m json.RawMessage
		if err := t.dec.Decode(&m); err != nil {
			return
		}
	}
}

func (t *transport) watch() {
	t.done <- t.cmd.Wait()
}

// CopyBesideWait: Wait in a goroutine started before the output is
// copied until EOF.
func CopyBesideWait(ctx context.Context, prog string, w io.Writer) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: .*Wait returns in bounded time \(cmd.Wait \(waitaside.go:\d+\) runs in a goroutine apart`
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	_, _ = io.Copy(w, stdout)
	return <-errc
}

// CopyThenWait: the goroutine copies until EOF and only then waits:
// Wait comes after the reads, which last while any process holds the
// pipe.
func CopyThenWait(ctx context.Context, prog string, w io.Writer) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	errc := make(chan error, 1)
	go func() {
		_, _ = io.Copy(w, stdout)
		errc <- cmd.Wait()
	}()
	return <-errc
}

// ReadThenGoWait: the reads end before the goroutine that waits starts.
func ReadThenGoWait(ctx context.Context, prog string, w io.Writer) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	_, _ = io.Copy(w, stdout)
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	return <-errc
}

type runner struct {
	cmd *exec.Cmd
}

// Open starts the command; its output is read until EOF from now on,
// and Wait comes only in Close: until then a descendant holding the
// pipe keeps the reads waiting, as if there were no Wait.
func Open(ctx context.Context, prog string) (*runner, error) {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return nil, err
	}
	r := &runner{cmd: cmd}
	go r.readLoop(stdout)
	return r, nil
}

func (r *runner) readLoop(stdout io.Reader) {
	_, _ = io.Copy(io.Discard, stdout)
}

func (r *runner) Close() error {
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	return <-done
}

// Stream is reduced from a coding agent's bash tool: the reads run in
// goroutines and cmd.Wait comes before their join, so Wait closes the
// pipes once bash exits and the reads end with it.
func Stream(ctx context.Context, script string, line func(string)) error {
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Wait \(waitaside.go:\d+\) comes while the reads of the pipe run in goroutines: it closes the pipe once the direct child exits\)`
		return err
	}
	done := make(chan struct{})
	read := func(r io.Reader) {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				line(string(buf[:n]))
			}
			if err != nil {
				return
			}
		}
	}
	go read(stdout)
	err = cmd.Wait()
	<-done
	return err
}

// Drain joins the reads before Wait: the reads last while a descendant
// holds the pipe.
func Drain(ctx context.Context, script string, line func(string)) error {
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\)`
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(io.Discard, stdout)
	}()
	<-done
	return cmd.Wait()
}

// command lets a test fake the probe's process (reduced from
// cloudprober's external probe): its Wait is *exec.Cmd's.
type command interface{ Wait() error }

func monitor(cmd command) error { return cmd.Wait() } // want monitor:`execcheck\[param 0: \[waited\]\]`

// Probe reads stderr in a goroutine and waits in another through a
// helper that takes the interface: Wait closes the pipe once the probe
// exits, so nothing hangs, but its descendants keep running.
func Probe(ctx context.Context, name string, done chan<- error) error {
	cmd := exec.CommandContext(ctx, name)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	go io.Copy(io.Discard, stderr)
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Wait \(in monitor\) \(waitaside.go:\d+\) runs in a goroutine apart from the reads of the pipe`
		return err
	}
	go func() { done <- monitor(cmd) }()
	return nil
}

// stdio is codehalter's MCP transport: the goroutine that reads stdout
// to EOF reaps the child in a deferred call, so Wait comes only after
// the reads, which last while any process holds the pipe.
type stdio struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	done   chan struct{}
}

func Dial(prog string, args ...string) (*stdio, error) {
	cmd := exec.Command(prog, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(a loop of br.ReadString\), which WaitDelay does not close and nothing bounds Wait; a cancel kills only the direct child \(s.cmd.Process.Kill\(\)\)`
		return nil, err
	}
	s := &stdio{cmd: cmd, stdout: stdout, done: make(chan struct{})}
	go s.readLoop()
	return s, nil
}

func (s *stdio) readLoop() {
	defer func() {
		_ = s.cmd.Wait()
		close(s.done)
	}()
	br := bufio.NewReader(s.stdout)
	for {
		if _, err := br.ReadString('\n'); err != nil {
			return
		}
	}
}

func (s *stdio) Close() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// DialApart: the deferred Wait is in a goroutine of its own, which reads
// nothing; the reads run apart from it.
func DialApart(prog string, line func(string)) error {
	cmd := exec.Command(prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait \(waitaside.go:\d+\) runs in a goroutine apart from the reads`
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = cmd.Wait() }()
	}()
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line(sc.Text())
		}
	}()
	_ = cmd.Process.Kill()
	<-done
	return nil
}

// DialDeferred: the deferred call is Wait itself, and a helper of the
// package reads the pipe after it.
func DialDeferred(prog string) (*stdio, error) {
	cmd := exec.Command(prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return nil, err
	}
	s := &stdio{cmd: cmd, stdout: stdout, done: make(chan struct{})}
	go s.drain()
	return s, nil
}

func (s *stdio) drain() {
	defer close(s.done)
	defer s.cmd.Wait()
	discard(s.stdout)
}

func discard(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
	}
}

// Launch is jcode-go's launcher before its fix: the command is started
// by a helper, and the Wait beside the read of the tail is there as it
// is beside a cmd.Start.
func Launch(prog string, ready func() bool) (string, error) {
	cmd := exec.Command(prog, "api-bridge")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := startProcess(cmd); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\) \(in terminate\)\); Wait returns in bounded time \(cmd.Wait \(waitaside.go:\d+\) runs in a goroutine apart from the reads of the pipe`
		return "", err
	}
	tail := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(bufio.NewReader(stderr))
		tail <- string(b)
	}()
	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()
	for !ready() {
		select {
		case err := <-waitDone:
			return <-tail, err
		default:
		}
	}
	terminate(cmd, waitDone)
	return "", nil
}

func startProcess(cmd *exec.Cmd) error { return cmd.Start() } // want startProcess:`^execcheck\[param 0: \[runs:Start\]\]$`

func terminate(cmd *exec.Cmd, waitDone <-chan error) { // want terminate:`^execcheck\[param 0: \[kills\(child:KILL\)\]\]$`
	select {
	case <-waitDone:
	default:
		_ = cmd.Process.Kill()
		<-waitDone
	}
}

// Exec is tilt's processExecer.Start: a go statement runs the helper
// that starts the command and waits for it, and the helper's closed
// channel is returned; the function with the go statement starts
// nothing itself.
func Exec(ctx context.Context, argv []string, w io.Writer) chan struct{} {
	done := make(chan struct{})
	go processRun(ctx, argv, w, done)
	return done
}

func processRun(ctx context.Context, argv []string, w io.Writer, done chan struct{}) {
	defer close(done)
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Stdout = w
	if err := c.Start(); err != nil { // want `^hang: stdout is an io.Writer \(w\)`
		return
	}
	_ = c.Wait()
}
