package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
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
// group is killed, which flakehunt then says on stderr (escalated). A
// variable, so that a test can give a loaded machine more time.
var interruptGrace = 5 * time.Second

// escalated starts what flakehunt says when go test outlived the grace.
const escalated = "go test still ran"

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
