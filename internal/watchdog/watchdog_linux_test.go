package watchdog_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/internal/watchdog"
)

// goneWithin bounds how long after the pipe's EOF the watchdog has killed
// and removed everything, and exited.
const goneWithin = time.Second

// The watchdog does nothing while the pipe is open. At EOF it kills the
// processes of the fixtures it was told of (the known one, and one that
// holds the fixture's FIFO without having been named), removes their
// folders, leaves alone a fixture that ended, and exits, all within a
// second.
func TestWatchdogCleansUpAtEOF(t *testing.T) {
	testenv.LinuxMode(t)
	dir := t.TempDir()
	wd := startWatchdog(t, self(t))
	w := wd.w

	marker := testenv.FixtureFolder(t, dir, "exectest-"+proc.OwnerTag()+"-tok1-x")
	folder := filepath.Dir(marker)
	known := testenv.SleepingProcess(t)
	holder := testenv.HoldFIFO(t, marker)
	endedMarker := testenv.FixtureFolder(t, dir, "exectest-"+proc.OwnerTag()+"-tok2-x")
	ended := filepath.Dir(endedMarker)
	endedHolder := testenv.HoldFIFO(t, endedMarker)
	fmt.Fprintf(w, "dir tok1 %q\nproc tok1 %d %d\n", folder, known.PID, known.Start)
	fmt.Fprintf(w, "dir tok2 %q\nproc tok2 %d %d\nend tok2\n", ended, endedHolder.PID, endedHolder.Start)

	// Nothing happens while the test process lives: a short look.
	time.Sleep(200 * time.Millisecond)
	for _, id := range []proc.Identity{known, holder, endedHolder} {
		if !id.Alive() {
			t.Fatalf("%v with the pipe open: got killed, want alive", id)
		}
	}

	closed := wd.closeAndAwaitExit(t)
	for _, id := range []proc.Identity{known, holder} {
		if !testenv.AwaitDead(id, goneWithin-time.Since(closed)) {
			t.Errorf("fixture process %v %v after EOF: alive, want dead", id, goneWithin)
		}
	}
	if _, err := os.Stat(folder); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("fixture folder after EOF: got %v, want it gone", err)
	}
	if !endedHolder.Alive() {
		t.Errorf("holder of an ended fixture's FIFO: got killed, want alive")
	}
	if _, err := os.Stat(ended); err != nil {
		t.Errorf("an ended fixture's folder: got %v, want it kept", err)
	}
}

// The watchdog changes nothing the test sees: a process group of its own,
// /dev/null for stdin, stdout and stderr, no descriptor but its pipe (and
// the runtime's own), no working directory of the test's, the signals
// that end a run from outside ignored; no process-leak check lists it, no
// descriptor check the test process's end of its pipe, and no process the
// test process starts inherits that end.
func TestWatchdogStaysOutOfTheWay(t *testing.T) {
	testenv.LinuxMode(t)
	t.Cleanup(watchdog.Die)
	watchdog.Die() // the next starts with this test's inheritable descriptor
	inheritable(t)
	watchdog.Watch("tok-out-of-the-way").End()
	id, ok := watchdog.Running()
	if !ok {
		t.Fatalf("watchdog: got none, %v", watchdog.Err())
	}
	st, err := id.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if st.PGID != id.PID || st.PPID != os.Getpid() {
		t.Errorf("watchdog %v: got ppid %d, pgid %d, want this test process's child leading a group of its own", id, st.PPID, st.PGID)
	}
	// Ready once it ignores them: it has run its init.
	backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		return testenv.SigIgnored(t, id.PID, syscall.SIGHUP)
	})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !testenv.SigIgnored(t, id.PID, sig) {
			t.Errorf("watchdog %v: got %v not ignored, want it ignored", id, sig)
		}
	}
	// Any descriptor the test process had without close-on-exec (this
	// one, from its parent's side) is closed in the watchdog.
	inherited := inheritable(t)
	pipe := ""
	for _, fd := range fds(t, id.PID) {
		switch {
		case fd.num <= 2 && fd.target == os.DevNull:
		case fd.num == 3 && proc.IsPipe(fd.target):
			pipe = fd.target
		case fd.num > 3 && fd.target != inherited && fd.cloexec && !proc.IsPipe(fd.target):
			// the runtime's own: epoll, eventfd, the cgroup's CPU limit
		default:
			t.Errorf("watchdog %v: fd %d: got %s (close-on-exec %v), want /dev/null for 0 to 2, its pipe for 3, only the runtime's own above", id, fd.num, fd.target, fd.cloexec)
		}
	}
	if cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", id.PID)); cwd != "/" {
		t.Errorf("watchdog %v: working directory: got %q, want /", id, cwd)
	}
	if slices.Contains(proc.LiveDescendants(), id) {
		t.Errorf("LiveDescendants: got the watchdog %v, want it left out", id)
	}
	own := -1
	for _, fd := range fds(t, os.Getpid()) {
		if fd.target == pipe {
			own = fd.num
		}
	}
	if own < 0 {
		t.Fatalf("test process: got no descriptor on the watchdog's pipe %s", pipe)
	}
	if slices.ContainsFunc(proc.FDs(os.Getpid()), func(fd proc.FD) bool { return fd.Num == own }) {
		t.Errorf("FDs of the test process: got fd %d, its end of the watchdog's pipe, want it left out", own)
	}
	child := testenv.SleepingProcess(t)
	if slices.ContainsFunc(fds(t, child.PID), func(fd fdTarget) bool { return fd.target == pipe }) {
		t.Errorf("a process the test process started: got a descriptor on the watchdog's pipe %s, want none (close-on-exec)", pipe)
	}
}

// A watchdog killed under a running test is reaped, and the next fact
// starts another, told of every fixture not cleaned up yet: at the test
// process's death, the new one cleans those up.
func TestWatchdogStartsAgainWhenLost(t *testing.T) {
	testenv.LinuxMode(t)
	t.Cleanup(watchdog.Die)
	dir := t.TempDir()
	marker := testenv.FixtureFolder(t, dir, "exectest-"+proc.OwnerTag()+"-tok3-x")
	folder := filepath.Dir(marker)
	f := watchdog.Watch("tok3")
	f.Dir(folder)
	first, ok := watchdog.Running()
	if !ok {
		t.Fatalf("watchdog: got none, %v", watchdog.Err())
	}
	if err := first.Kill(); err != nil {
		t.Fatal(err)
	}
	testenv.AwaitDead(first, 5*time.Second)
	known := testenv.SleepingProcess(t)
	f.Process(known)
	second, ok := watchdog.Running()
	if !ok || second == first {
		t.Fatalf("watchdog after the first was killed: got %v (running %v), want another; %v", second, ok, watchdog.Err())
	}
	if _, err := first.Stat(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed watchdog %v: got %v, want it reaped", first, err)
	}
	holder := testenv.HoldFIFO(t, marker)
	watchdog.Die()
	for _, id := range []proc.Identity{known, holder} {
		if !testenv.AwaitDead(id, goneWithin) {
			t.Errorf("fixture process %v after the second watchdog's EOF: alive, want dead", id)
		}
	}
	if _, err := os.Stat(folder); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("fixture folder after the second watchdog's EOF: got %v, want it gone", err)
	}
}

type fdTarget struct {
	num     int
	target  string
	cloexec bool
}

// fds reads a process's descriptors from /proc, as they are.
func fds(t *testing.T, pid int) []fdTarget {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []fdTarget
	for _, e := range entries {
		n, _ := strconv.Atoi(e.Name())
		target, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		info, _ := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%d", pid, n))
		cloexec := false
		for line := range strings.Lines(string(info)) {
			if v, ok := strings.CutPrefix(line, "flags:"); ok {
				flags, _ := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
				cloexec = flags&unix.O_CLOEXEC != 0
			}
		}
		out = append(out, fdTarget{n, target, cloexec})
	}
	return out
}

// inheritable opens, once per test binary, a descriptor without
// close-on-exec, as a test process gets from its parent, and returns its
// target.
func inheritable(t *testing.T) string {
	t.Helper()
	inheritableOnce.Do(func() {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		// Dup without O_CLOEXEC; kept open for the test binary's life.
		fd, err := unix.Dup(fdNum(r))
		if err != nil {
			t.Fatal(err)
		}
		inheritableTarget, _ = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	})
	return inheritableTarget
}

var (
	inheritableOnce   sync.Once
	inheritableTarget string
)

func fdNum(f *os.File) int {
	fd := -1
	c, _ := f.SyscallConn()
	c.Control(func(u uintptr) { fd = int(u) })
	return fd
}

// self is the test process's identity, as the watchdog's argument names
// its owner.
func self(t *testing.T) proc.Identity {
	t.Helper()
	id, err := proc.Identify(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A watchdog started by a test: the test binary in the role, and the
// write end of its pipe.
type startedWatchdog struct {
	w   *os.File
	cmd *exec.Cmd
}

// startWatchdog starts the test binary as the watchdog of owner, with env
// added to the test's environment; the cleanup kills and reaps it.
func startWatchdog(t *testing.T, owner proc.Identity, env ...string) startedWatchdog {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	cmd := exec.Command(exe, watchdog.RoleArg(owner, 3)) // ExtraFiles[0] is descriptor 3
	cmd.Env = append(os.Environ(), env...)
	cmd.ExtraFiles = []*os.File{r}
	//execcheck:ignore the watchdog starts nothing; the test waits for it, and the cleanup kills it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return startedWatchdog{w: w, cmd: cmd}
}

// closeAndAwaitExit closes the pipe, as the test process's death does,
// fails the test unless the watchdog then exits with status 0 within
// goneWithin, and returns when the pipe was closed.
func (wd startedWatchdog) closeAndAwaitExit(t *testing.T) time.Time {
	t.Helper()
	wd.w.Close()
	closed := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- wd.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("watchdog's end: got %v, want exit status 0", err)
		}
	case <-time.After(goneWithin):
		t.Fatalf("watchdog: still running %v after EOF", goneWithin)
	}
	return closed
}
