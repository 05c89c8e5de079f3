package cancelpolicy_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// bound is what a stopped tree gets to end after the cancel: generous, and
// far below the WaitDelay the tests set, so that only the group kill (not
// the backstop) can meet it.
const (
	bound     = 5 * time.Second
	waitDelay = 15 * time.Second
)

// shell returns sh -c script, with its output in a bytes.Buffer (os/exec
// copies through a pipe) and $1 a file in which the script writes the pid
// of its descendant.
func shell(ctx context.Context, t *testing.T, script string) (*exec.Cmd, string) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "descendant.pid")
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", script, "sh", pidFile)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd, pidFile
}

// A descendant is a process the test started through a script, pinned by
// a pidfd opened while its command line showed it was the script's sleep.
type descendant struct {
	pid, fd int
}

// awaitDescendant reads the pid the script wrote, pins it, and kills it at
// the end of the test if it still runs.
func awaitDescendant(t *testing.T, pidFile string) descendant {
	t.Helper()
	var d descendant
	poll(t, "the descendant's pid in "+pidFile, func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil || !bytes.HasSuffix(b, []byte("\n")) {
			return false
		}
		d.pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	fd, err := unix.PidfdOpen(d.pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open of the descendant %d: %v", d.pid, err)
	}
	d.fd = fd
	// Opened first, checked after: the pidfd then names the sleep. The
	// pid is written right after the fork, so the exec may still be on its
	// way (before it the command line is the shell's, during it empty).
	var cmdline []byte
	poll(t, "the descendant's exec of /bin/sleep", func() bool {
		cmdline, _ = os.ReadFile("/proc/" + strconv.Itoa(d.pid) + "/cmdline")
		return bytes.HasPrefix(cmdline, []byte("/bin/sleep\x00"))
	})
	t.Cleanup(func() {
		unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		unix.Close(fd)
	})
	return d
}

// dead reports whether the descendant is gone or a zombie (zombies count
// as dead).
func (d descendant) dead() bool {
	if err := unix.PidfdSendSignal(d.fd, 0, nil, 0); errors.Is(err, unix.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(d.pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && len(stat) > i+2 && stat[i+2] == 'Z'
}

// awaitDead waits up to bound for the descendant to die.
func awaitDead(t *testing.T, d descendant, what string) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for delay := time.Millisecond; !d.dead(); delay = min(2*delay, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: descendant %d (/bin/sleep 20): got alive %v after the cancel, want dead", what, d.pid, bound)
		}
		time.Sleep(delay)
	}
}

// poll waits up to 10s for cond, with a short capped backoff.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for delay := time.Millisecond; !cond(); delay = min(2*delay, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: got nothing after 10s", what)
		}
		time.Sleep(delay)
	}
}

// reaped reports whether pid no longer exists (the leader was reaped).
func reaped(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return errors.Is(err, os.ErrNotExist)
}

// zombie reports whether pid is a zombie (it exited, nobody reaped it).
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(stat, ')')
	return err == nil && i > 0 && len(stat) > i+2 && stat[i+2] == 'Z'
}

// doomed reports whether the descendant is dead or has a SIGKILL on its
// way: the kernel tears a killed process down asynchronously.
func (d descendant) doomed() bool {
	if d.dead() {
		return true
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(d.pid) + "/status")
	if err != nil {
		return true
	}
	for _, line := range strings.Split(string(status), "\n") {
		name, mask, ok := strings.Cut(line, ":")
		if !ok || name != "SigPnd" && name != "ShdPnd" {
			continue
		}
		if m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64); err == nil && m&(1<<(unix.SIGKILL-1)) != 0 {
			return true
		}
	}
	return false
}
