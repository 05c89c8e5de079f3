package testenv

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/exectest/exectest/internal/proc"
)

// SleepingProcess starts /bin/sleep 30 as [Start] does and returns it.
func SleepingProcess(t testing.TB) proc.Identity {
	t.Helper()
	return Start(t, exec.Command("/bin/sleep", "30"))
}

// HoldFIFO starts a process that holds file open as a fixture process
// holds its FIFO (descriptor 9, kept across exec), and returns it once it
// does. It starts it as [Start] does.
func HoldFIFO(t testing.TB, file string) proc.Identity {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `exec 9<>"$1" && echo holding && exec /bin/sleep 30`, "sh", file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the script execs /bin/sleep: nothing below it; the cleanup kills and reaps it
	id := Start(t, cmd)
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "holding\n" {
		t.Fatalf("holder of %s: got %q, want \"holding\"", file, line)
	}
	return id
}

// FixtureFolder makes dir/name with a FIFO named marker in it, as a
// fixture's folder, and returns the FIFO's path.
func FixtureFolder(t testing.TB, dir, name string) string {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(folder, "marker")
	if err := unix.Mkfifo(marker, 0o600); err != nil {
		t.Fatal(err)
	}
	return marker
}

// SigIgnored reports, from /proc/PID/status, whether the process ignores
// sig.
func SigIgnored(t testing.TB, pid int, sig syscall.Signal) bool {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			return mask&(1<<(sig-1)) != 0
		}
	}
	t.Fatalf("no SigIgn line in /proc/%d/status", pid)
	return false
}
