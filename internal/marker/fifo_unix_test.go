//go:build unix

package marker

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestWriterWithoutReaderNeverBlocks(t *testing.T) {
	if _, err := Open(t.TempDir()+"/missing", "tok"); err == nil {
		t.Errorf("Open of a missing FIFO: got nil error, want one")
	}
	path := t.TempDir() + "/fifo"
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := Open(path, "tok") // no reader: a write-only open would block here
	if err != nil {
		t.Fatalf("Open of a FIFO with no reader: %v", err)
	}
	if err := w.Write(Alive, "1 1 (x) S"); err != nil {
		t.Fatalf("Write with no reader: %v", err)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	buf := make([]byte, 100)
	n, _ := unix.Read(fd, buf)
	if got, want := string(buf[:max(n, 0)]), "exectest tok alive 1 1 (x) S\n"; got != want {
		t.Errorf("line in the FIFO: got %q, want %q", got, want)
	}
}
