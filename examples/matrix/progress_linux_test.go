package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its controller, to read what was
// written, and the terminal itself.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err == nil {
		if err = unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0); err == nil {
			var n int
			if n, err = unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN); err == nil {
				tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
			}
		}
		if err != nil {
			ctl.Close()
		}
	}
	if err != nil {
		msg := fmt.Sprintf("no pseudo-terminal to write the progress to: %v", err)
		if strict, _ := strconv.ParseBool(os.Getenv("EXECTEST_STRICT")); strict {
			t.Fatal(msg + " (EXECTEST_STRICT=1)")
		}
		t.Skip(msg)
	}
	t.Cleanup(func() { ctl.Close(); tty.Close() })
	return ctl, tty
}

// The progress line is rewritten in place with \r on a terminal only: a
// file (a CI log) gets none of it.
func TestProgressOnlyOnATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	report := newProgress(f)
	report(1, 2)
	report(2, 2)
	if b, _ := os.ReadFile(f.Name()); len(b) != 0 {
		t.Errorf("progress to a file: got %q, want nothing", b)
	}

	ctl, tty := openPTY(t)
	report = newProgress(tty)
	report(1, 2)
	report(2, 2)
	tty.Close() // the controller reads what was written, then EIO
	b, _ := io.ReadAll(ctl)
	// The terminal turns \n into \r\n.
	if got, want := string(b), "\r1/2 cells\r2/2 cells\r\n"; got != want {
		t.Errorf("progress to a terminal: got %q, want %q", got, want)
	}
	if strings.Contains(string(b), "\x1b") {
		t.Errorf("progress to a terminal: got escape sequences in %q", b)
	}
}
