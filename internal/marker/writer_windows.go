package marker

import (
	"os"
)

// A Writer reports to the fixture's report file: Windows has no FIFO of
// this kind. Each line is appended whole by one write (FILE_APPEND_DATA),
// so the lines of the fixture's processes never interleave; the file is
// open only during the write, so that nothing holds it once they are gone
// and the test can remove the fixture's folder.
type Writer struct {
	path  string
	token string
}

// Open checks that the report file is there and writable.
func Open(path, token string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	f.Close()
	return &Writer{path: path, token: token}, nil
}

// Write appends one line.
func (w *Writer) Write(kind, payload string) error {
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(Line(w.token, kind, payload))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
