package marker

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A fixture that runs as another user may write the FIFO (it is 0622) but
// not read it: Open must still succeed, write-only, and its lines arrive.
func TestOpenWriteOnlyWhereReadIsDenied(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/fifo"
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// The test's end: held read-write, as the monitor holds it.
	held, err := unix.Open(path, unix.O_RDWR|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(held)
	if os.Geteuid() == 0 {
		// Root may open anything: be nobody, for whom the FIFO is write-only.
		for _, p := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(path, 0o622); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Setresuid(-1, nobody, -1); err != nil {
			t.Skipf("setresuid to nobody (%d): %v", nobody, err)
		}
		defer func() {
			if err := syscall.Setresuid(-1, 0, -1); err != nil {
				panic(fmt.Sprintf("setresuid back to root: %v", err))
			}
		}()
	} else if err := os.Chmod(path, 0o200); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Open(path, unix.O_RDWR|unix.O_NONBLOCK, 0); !errors.Is(err, unix.EACCES) {
		t.Fatalf("read-write open as uid %d: got %v, want EACCES (else this test proves nothing)", os.Geteuid(), err)
	}
	w, err := Open(path, "tok")
	if err != nil {
		t.Fatalf("Open of a FIFO that may only be written, as uid %d: got %v, want a write-only writer", os.Geteuid(), err)
	}
	defer unix.Close(w.fd)
	if err := w.Write(Alive, "1 1 (x) S"); err != nil {
		t.Fatalf("Write: %v", err)
	}
	buf := make([]byte, 100)
	n, _ := unix.Read(held, buf)
	if got, want := string(buf[:max(n, 0)]), "exectest tok alive 1 1 (x) S\n"; got != want {
		t.Errorf("line in the FIFO: got %q, want %q", got, want)
	}
}

// nobody is the uid of the user nobody on Debian and most Linux systems.
const nobody = 65534
