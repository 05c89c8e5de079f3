package monitor

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// openReports opens the fixture's report file, to which its processes
// append their lines (see marker.Writer): Windows has no FIFO of that
// kind. Its reader follows the file as tail -f does, until Close.
func openReports(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &tail{f: f, closed: make(chan struct{})}, nil
}

// tail reads a file that grows, waiting at its end for more: with a
// capped backoff, reset by each read that finds some, since Windows
// tells no reader of a plain file that it grew.
type tail struct {
	f      *os.File
	closed chan struct{}
	once   sync.Once
}

// tailPoll bounds the wait between two looks at the end of the file: a
// report reaches the monitor at most this late.
const tailPoll = 5 * time.Millisecond

func (t *tail) Read(p []byte) (int, error) {
	for d := 50 * time.Microsecond; ; d = min(2*d, tailPoll) {
		n, err := t.f.Read(p)
		if n > 0 {
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		select {
		case <-t.closed:
			return 0, io.EOF
		case <-time.After(d):
		}
	}
}

// Close ends a Read waiting for more, and closes the file.
func (t *tail) Close() error {
	t.once.Do(func() { close(t.closed) })
	return t.f.Close()
}
