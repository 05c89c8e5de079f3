package proc

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// ErrGone says that a process has exited, or was never seen, in /proc.
var ErrGone = errors.New("no such process in /proc (exited already?)")

// ErrAmbiguous says that more than one process fits a report: sandboxes
// with PID namespaces of their own number their processes alike, and
// start times tick only every 10 ms, so two sandboxes started together
// hold processes that look the same from inside.
var ErrAmbiguous = errors.New("more than one process fits")

// Resolve finds, in the test's PID namespace, the process that calls itself
// innerPID in its own namespace and started at start (a process inside a
// sandbox with its own PID namespace reports pids the test cannot use).
// Where several fit, it returns [ErrAmbiguous] rather than guess: use
// [ResolveHolding] where the reporter can hold a file open.
//
// The common case, a process in the test's own namespace, costs one read.
// Otherwise it reads /proc/*/stat once, comparing start times before
// anything else.
func Resolve(innerPID int, start uint64) (Identity, error) {
	return resolve(innerPID, start, "")
}

// ResolveHolding is [Resolve] for a reporter that holds file open for as
// long as it runs, through a descriptor that survives exec (whatever its
// mode). A process counts only if it holds file so: that tells apart
// identical sandboxes started in the same clock tick, each reporting
// through a file of its own. It also finds a reporter in a PID namespace
// of its own that read the test's /proc (unshare --pid --fork without
// --mount-proc), and so reported its pid in the test's namespace: the
// process with that pid and start that holds file is the reporter,
// whatever its namespace. Resolve, without a file, never takes a process
// of another namespace by its pid here.
func ResolveHolding(innerPID int, start uint64, file string) (Identity, error) {
	return resolve(innerPID, start, file)
}

func resolve(innerPID int, start uint64, file string) (Identity, error) {
	var want unix.Stat_t
	if file != "" {
		if err := unix.Stat(file, &want); err != nil {
			return Identity{}, fmt.Errorf("proctest: resolve pid %d: %w", innerPID, err)
		}
	}
	if s, err := ReadStat(innerPID); err == nil && s.Start == start {
		// The held file makes the process the fixture's whatever its
		// namespace: one that reads the test's /proc from a PID namespace
		// of its own reports its pid here, and its NSpid ends elsewhere.
		// Without a file, a process of another namespace could merely
		// share the reported pid and start time.
		if file != "" && holds(innerPID, want.Dev, want.Ino) {
			return Identity{PID: innerPID, Start: start}, nil
		}
		if file == "" && inOwnNamespace(innerPID) {
			return Identity{PID: innerPID, Start: start}, nil
		}
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return Identity{}, fmt.Errorf("proctest: resolve pid %d: %w", innerPID, err)
	}
	var found []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		s, err := ReadStat(pid)
		if err != nil || s.Start != start {
			continue
		}
		ns, err := NSpid(pid)
		if err != nil || len(ns) == 0 || ns[len(ns)-1] != innerPID {
			continue
		}
		if file != "" && !holds(pid, want.Dev, want.Ino) {
			continue
		}
		found = append(found, pid)
	}
	switch {
	case len(found) == 1:
		return Identity{PID: found[0], Start: start}, nil
	case len(found) > 1:
		return Identity{}, fmt.Errorf("proctest: resolve pid %d (start %d): pids %v: %w", innerPID, start, found, ErrAmbiguous)
	}
	if file != "" {
		return Identity{}, fmt.Errorf("proctest: resolve pid %d (start %d) holding %s: %w", innerPID, start, file, ErrGone)
	}
	return Identity{}, fmt.Errorf("proctest: resolve pid %d (start %d): %w", innerPID, start, ErrGone)
}

// ownPIDNamespace names the test process's PID namespace, "" if unknown.
var ownPIDNamespace = sync.OnceValue(func() string {
	l, _ := os.Readlink("/proc/self/ns/pid")
	return l
})

// inOwnNamespace reports whether pid lives in the test's PID namespace:
// one readlink where the namespace can be read (not for another user's
// process), the NSpid line of its status otherwise.
func inOwnNamespace(pid int) bool {
	if own := ownPIDNamespace(); own != "" {
		if l, err := os.Readlink(procPath(pid, "ns/pid")); err == nil {
			return l == own
		}
	}
	ns, err := NSpid(pid)
	return err == nil && len(ns) == 1
}

// holds reports whether pid has the file dev/ino open through a
// descriptor that survives exec, as an inherited one does. A descriptor
// that closes on exec is not the fixture's: between fork and exec, a child
// the test process is starting has copies of all the test process's
// descriptors, the monitor's FIFO among them, and must not be taken for a
// fixture process.
func holds(pid int, dev, ino uint64) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		var st unix.Stat_t
		if unix.Stat(dir+"/"+e.Name(), &st) == nil && st.Dev == dev && st.Ino == ino && !closeOnExec(pid, e.Name()) {
			return true
		}
	}
	return false
}

// closeOnExec reports whether descriptor fd of pid closes on exec, from
// the octal flags line of its fdinfo; unreadable counts as yes.
func closeOnExec(pid int, fd string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + fd)
	if err != nil {
		return true
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err != nil || flags&unix.O_CLOEXEC != 0
		}
	}
	return true
}
