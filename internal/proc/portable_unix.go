//go:build unix

package proc

import "golang.org/x/sys/unix"

// groupAndSession asks the system, as gopsutil does not say.
func groupAndSession(pid int) (pgid, sid int) {
	pgid, _ = unix.Getpgid(pid)
	sid, _ = unix.Getsid(pid)
	return pgid, sid
}
