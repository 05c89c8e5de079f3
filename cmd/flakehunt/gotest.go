package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// event is one test2json record (go doc test2json). FailedBuild and
// ImportPath tie a package's build failure to the compiler's output.
type event struct {
	Time        time.Time
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
	ImportPath  string
}

type goTestResult struct {
	exitCode    int
	interrupted bool
	decodeErr   error
}

// interruptGrace is how long go test gets to stop after SIGINT before its
// group is killed.
const interruptGrace = 5 * time.Second

// runGoTest runs go with args in a process group of its own and feeds its
// stdout to agg. An error means that go test could not run at all.
func runGoTest(ctx context.Context, args []string, agg *aggregator, stderr io.Writer) (goTestResult, error) {
	var res goTestResult
	if err := ctx.Err(); err != nil {
		res.interrupted = true
		return res, nil
	}
	cmd := exec.Command("go", args...)
	// Its own group, so that one signal reaches the test binaries too, and
	// so that ^C reaches go test only through us and we know it happened.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = stderr
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	// A process a test leaked into the background may hold go test's
	// stdout or stderr open long after go test exits.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("start go test: %w", err)
	}
	pgid := cmd.Process.Pid

	decoded := make(chan error, 1)
	go func() {
		err := decodeEvents(pr, agg, stderr)
		// Keep reading whatever follows an unreadable stream, so that go
		// test never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, pr)
		decoded <- err
	}()

	// exited is set, under mu, between go test's exit and its reaping: while
	// it is a zombie its pid, our pgid, cannot be reused, so a signal sent
	// under mu with exited false reaches go test's group and nothing else.
	var (
		mu          sync.Mutex
		exited      bool
		interrupted bool
	)
	kill := func(sig syscall.Signal) {
		if pgid > 1 && pgid != syscall.Getpgrp() {
			_ = syscall.Kill(-pgid, sig)
		}
	}
	signalGroup := func(sig syscall.Signal) {
		mu.Lock()
		defer mu.Unlock()
		if exited {
			return
		}
		interrupted = true
		agg.interrupted.Store(true)
		kill(sig)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		signalGroup(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(interruptGrace):
			signalGroup(syscall.SIGKILL)
		}
	}()

	waitExit(pgid)
	mu.Lock()
	if interrupted {
		// go test waits for its test binaries, so what is left in its group
		// now escaped it; we asked everyone to stop, so it goes too.
		kill(syscall.SIGKILL)
	}
	exited = true
	mu.Unlock()
	close(done)

	waitErr := cmd.Wait()
	pw.Close()
	res.decodeErr = <-decoded
	res.interrupted = interrupted
	var exit *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exit):
		res.exitCode = exit.ExitCode()
		if res.exitCode < 0 {
			res.exitCode = 1 // killed by a signal
		}
	case errors.Is(waitErr, exec.ErrWaitDelay):
		// go test itself exited 0; only a straggler held the pipes.
	default:
		return res, fmt.Errorf("wait for go test: %w", waitErr)
	}
	return res, nil
}

// waitExit blocks until process pid has exited, without reaping it.
func waitExit(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

// decodeEvents feeds every test2json event read from r to agg until EOF.
// A line that is not JSON goes to stray, and decoding resumes at the next
// line.
func decodeEvents(r io.Reader, agg *aggregator, stray io.Writer) error {
	src := &resumable{r: r}
	dec := json.NewDecoder(src)
	for {
		var ev event
		err := dec.Decode(&ev)
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case err == nil:
			agg.add(ev)
			continue
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			// A stream cut short (go test killed) ends with half an event.
			return nil
		case errors.As(err, &typeErr):
			// Valid JSON, and consumed, but not an event.
			continue
		case !errors.As(err, &syntaxErr):
			return err
		}
		// A Decoder stays broken after a syntax error: give back what it
		// read ahead, drop the offending line, and start a new one.
		ahead, _ := io.ReadAll(dec.Buffered())
		src.pending = append(ahead, src.pending...)
		line, err := src.skipLine()
		if text := strings.TrimSpace(string(line)); text != "" {
			fmt.Fprintf(stray, "flakehunt: not test2json: %s\n", text)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		dec = json.NewDecoder(src)
	}
}

// resumable is a reader that bytes can be pushed back into, so that
// decoding can restart after a bad line without stacking readers.
type resumable struct {
	pending []byte
	r       io.Reader
}

func (s *resumable) Read(p []byte) (int, error) {
	if len(s.pending) > 0 {
		n := copy(p, s.pending)
		s.pending = s.pending[n:]
		return n, nil
	}
	return s.r.Read(p)
}

// maxStray bounds what is kept of one line that is not JSON: a runaway
// line without a newline must not grow without limit.
const maxStray = 4096

// skipLine consumes up to and including the next newline and returns (the
// start of) what it consumed.
func (s *resumable) skipLine() ([]byte, error) {
	var line []byte
	keep := func(b []byte) {
		if room := maxStray - len(line); room > 0 {
			line = append(line, b[:min(len(b), room)]...)
		}
	}
	for {
		if i := bytes.IndexByte(s.pending, '\n'); i >= 0 {
			keep(s.pending[:i+1])
			s.pending = s.pending[i+1:]
			return line, nil
		}
		keep(s.pending)
		buf := make([]byte, 4096)
		n, err := s.r.Read(buf)
		s.pending = buf[:n]
		if err != nil && n == 0 {
			return line, err
		}
	}
}

// syncWriter makes w safe for the writes that os/exec's copy goroutine and
// the decoder make at the same time. An *os.File already is, and is passed
// to go test as is, so that go test writes its stderr directly.
func syncWriter(w io.Writer) io.Writer {
	switch w.(type) {
	case *os.File, *lockedWriter:
		return w
	}
	return &lockedWriter{w: w}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
