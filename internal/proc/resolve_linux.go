package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

func linuxResolve(innerPID int, start uint64, file string) (Identity, error) {
	var want fileID
	if file != "" {
		var err error
		if want, err = statFile(file); err != nil {
			return Identity{}, fmt.Errorf("proctest: resolve pid %d: %w", innerPID, err)
		}
	}
	if s, err := ReadStat(innerPID); err == nil && s.Start == start {
		// The held file makes the process the fixture's whatever its
		// namespace: one that reads the test's /proc from a PID namespace
		// of its own reports its pid here, and its NSpid ends elsewhere.
		// Without a file, a process of another namespace could merely
		// share the reported pid and start time.
		if file != "" && linuxHolds(innerPID, want) {
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
		if file != "" && !linuxHolds(pid, want) {
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

// linuxHolds reports whether pid has the file dev/ino open through a
// descriptor that survives exec, as an inherited one does. A descriptor
// that closes on exec is not the fixture's: between fork and exec, a child
// the test process is starting has copies of all the test process's
// descriptors, the monitor's FIFO among them, and must not be taken for a
// fixture process.
func linuxHolds(pid int, f fileID) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	names, err := ReadDirNames(dir)
	if err != nil {
		return false
	}
	for _, fd := range names {
		var st unix.Stat_t
		if unix.Stat(dir+"/"+fd, &st) == nil && uint64(st.Dev) == f.dev && uint64(st.Ino) == f.ino && !closeOnExec(pid, fd) {
			return true
		}
	}
	return false
}

// closeOnExec reports whether descriptor fd of pid closes on exec, from
// the octal flags line of its fdinfo; unreadable counts as yes.
func closeOnExec(pid int, fd string) bool {
	b, err := ReadFile("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + fd)
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
