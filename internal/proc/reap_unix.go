//go:build unix

package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

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
