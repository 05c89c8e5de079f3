//go:build unix

package marker

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// A Writer reports to the FIFO through one descriptor held for the
// process's whole life: the test finds the reporter by it (see package
// fixtures).
type Writer struct {
	fd    int
	token string
}

// Open opens the FIFO at path read-write, so that neither the open nor a
// write ever waits for a reader, and keeps it open. Another user may only
// write the FIFO: then it opens it write-only, which does not wait either,
// since the test holds it open for reading. The descriptor does not close
// on exec, as the shell fixture's inherited one does not: the test counts
// only such descriptors (a child it is still starting holds close-on-exec
// copies of its own), whatever their mode.
func Open(path, token string) (*Writer, error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.EACCES) {
		fd, err = unix.Open(path, unix.O_WRONLY|unix.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return &Writer{fd: fd, token: token}, nil
}

// Write sends one line; with the FIFO full (no reader left) it is dropped.
func (w *Writer) Write(kind, payload string) error {
	_, err := unix.Write(w.fd, []byte(Line(w.token, kind, payload)))
	return err
}
