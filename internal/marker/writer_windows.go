package marker

import (
	"errors"
	"os"
)

// A Writer would report to the FIFO: Windows has no FIFO of this kind, and
// no fixture runs there yet.
type Writer struct{}

// Open fails: there is no FIFO to report to on Windows.
func Open(path, token string) (*Writer, error) {
	return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("windows: no FIFO to report to")}
}

// Write fails as Open does.
func (w *Writer) Write(kind, payload string) error {
	return errors.New("windows: no FIFO to report to")
}
