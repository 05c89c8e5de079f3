package monitor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"golang.org/x/sys/unix"
)

// The fixture child reports from the shell itself, its stdout on the FIFO
// for the moment of the write: the test, reading the child's descriptors
// in that moment, must read them again once the shell has put its stdout
// back on the command's pipe, or the command's stdout is lost to the
// descriptor and pipe checks. The shell here keeps its stdout on the FIFO
// for 200 ms instead of microseconds.
func TestReadStdioWaitsForStdoutOffTheFIFO(t *testing.T) {
	if proc.Portable() {
		t.Skip("the portable mode reads no descriptors")
	}
	m, fifo := startOnFIFOs(t, "tok")
	// It waits on a FIFO of its own: the monitor reads every line of its.
	wait := filepath.Join(t.TempDir(), "wait")
	if err := unix.Mkfifo(wait, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", `exec 8>&1 1<>"$0"; read -r x <"$1"; exec 1>&8 8>&-; exec /bin/sleep 5`, fifo, wait)
	var out strings.Builder
	cmd.Stdout = &out // a pipe: os/exec copies it
	//execcheck:ignore the shell execs sleep and forks nothing: the kill at cleanup ends the one process holding the pipe
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid := cmd.Process.Pid
	if !backoff.Poll(5*time.Second, 100*time.Microsecond, 10*time.Millisecond, func() bool { return proc.FDIs(pid, 1, fifo) }) {
		t.Fatalf("pid %d's stdout: never on the FIFO %s within 5s", pid, fifo)
	}
	// The read in its moment on the FIFO sees the FIFO: what the check
	// must not keep.
	if once, _ := readStdioOnce(pid); proc.IsPipe(once[1]) {
		t.Fatalf("stdout read while on the FIFO: got %s, want the FIFO (the test's setup is broken)", once[1])
	}
	// Let the shell go on in a moment: it reads one line from the FIFO.
	time.AfterFunc(200*time.Millisecond, func() {
		f, err := os.OpenFile(wait, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString("go\n")
			f.Close()
		}
	})
	targets, read := m.readStdio(pid)
	if !read || !proc.IsPipe(targets[1]) {
		t.Errorf("readStdio of a child whose stdout leaves the FIFO after 200ms: got %q (all read: %v), want stdout on a pipe", targets, read)
	}
}
