package proc

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// EnableSubreaper makes the test process a child subreaper: an orphan
// anywhere below it (a double fork, a setsid daemon whose parent exited)
// is reparented to it instead of to init, so it stays visible in
// /proc/self/task/*/children. The setting is process-wide and stays.
//
// The toolkit then reaps the orphans it identified as a fixture's, by pid
// ([Reap]); other orphans stay zombies of the test binary until it exits.
// It never waits for "any child", which would steal os/exec's children.
func EnableSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// IsSubreaper reports whether the test process is a child subreaper.
func IsSubreaper() bool {
	var v int32
	err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0)
	return err == nil && v != 0
}

// Reap collects id if, and only if, it is a zombie child of the test
// process. Call it only for processes no one else waits for: reaping a
// child that os/exec started makes its Wait fail.
func Reap(id Identity) bool {
	s, err := id.Stat()
	if err != nil || !s.Zombie() || s.PPID != os.Getpid() {
		return false
	}
	var ws unix.WaitStatus
	pid, err := unix.Wait4(id.PID, &ws, unix.WNOHANG, nil)
	return err == nil && pid == id.PID
}
