package cancelpolicy

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The group signal goes through the leader's pidfd: once the group has no
// member left, it reaches nobody (ESRCH), whatever process or group the
// number names by then. The kernel looks the group up by the struct pid
// the pidfd holds, so a group that reused the number is another struct pid
// and is not in reach.
func TestGroupSignalAfterGroupEmpty(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("/bin/true")
	g, err := prepare(cmd, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.pin(true)
	if g.sys.pidfd < 0 {
		t.Fatalf("pin right after Start: got no pidfd, want one (pidfd_open, Linux 5.3)")
	}
	defer g.finish()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	err = unix.PidfdSendSignal(g.sys.pidfd, 0, nil, pidfdSignalProcessGroup)
	if errors.Is(err, unix.EINVAL) {
		t.Skipf("pidfd_send_signal(PIDFD_SIGNAL_PROCESS_GROUP): got EINVAL: the kernel (before 6.9) lacks it")
	}
	if !errors.Is(err, unix.ESRCH) {
		t.Errorf("group signal through the pidfd of a reaped leader of an empty group: got %v, want ESRCH", err)
	}
	if err := g.signal(syscall.SIGKILL); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("signal to an empty group: got %v, want os.ErrProcessDone", err)
	}
}

// A process that left the group (here by setsid; job control and daemons
// do the same) is not signalled, also after the leader is gone: the
// signal reaches members of this group only.
func TestGroupSignalSparesOtherGroups(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "job.pid")
	cmd := exec.Command("/bin/sh", "-c", `setsid /bin/sleep 20 & echo $! >"$1"; exit 0`, "sh", pidFile)
	g, err := prepare(cmd, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.pin(true)
	defer g.finish()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var pid int
	deadline := time.Now().Add(10 * time.Second)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		b, err := os.ReadFile(pidFile)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("setsid's pid in %s: got nothing after 10s", pidFile)
		}
		time.Sleep(delay)
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open of the job %d: %v", pid, err)
	}
	defer unix.Close(fd)
	defer unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	deadline = time.Now().Add(10 * time.Second)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		pgid, err := unix.Getpgid(pid)
		if err == nil && pgid != cmd.Process.Pid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("setsid %d: got group %d (%v) after 10s, want a group of its own, not %d", pid, pgid, err, cmd.Process.Pid)
		}
		time.Sleep(delay)
	}
	if err := g.signal(syscall.SIGKILL); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("signal to the command's group, emptied by job control: got %v, want os.ErrProcessDone", err)
	}
	if err := unix.PidfdSendSignal(fd, 0, nil, 0); err != nil {
		t.Errorf("job %d in a session of its own after the group signal: got %v, want alive", pid, err)
	}
}

// Cancel after Wait pins nothing and signals nothing: the leader was
// reaped, so a pidfd opened on its number may name a stranger.
func TestCancelAfterWait(t *testing.T) {
	t.Parallel()
	cmd := exec.CommandContext(context.Background(), "/bin/true")
	g, err := prepare(cmd, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Cancel = g.cancel
	//execcheck:ignore /bin/true under a context never done: Cancel is called by hand after Wait, to test it
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Cancel(); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Cancel after Wait: got %v, want os.ErrProcessDone", err)
	}
	if g.sys.pidfd != -1 {
		t.Errorf("pidfd after Cancel of a reaped command: got %d, want -1 (none kept)", g.sys.pidfd)
	}
}

func TestSafeGroup(t *testing.T) {
	t.Parallel()
	for pgid, want := range map[int]bool{-1: false, 0: false, 1: false, unix.Getpgrp(): false, 1 << 30: true} {
		if got := safeGroup(pgid); got != want {
			t.Errorf("safeGroup(%d): got %v, want %v", pgid, got, want)
		}
	}
}

// Without a pidfd the group is signalled by number, and only while os/exec
// has not reaped the direct child: after Wait nothing is signalled.
func TestByNumberAfterWait(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("/bin/true")
	g, err := prepare(cmd, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := g.byNumber(syscall.SIGKILL); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("group signal by number after the reap: got %v, want os.ErrProcessDone", err)
	}
}
