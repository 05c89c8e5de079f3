package proc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// linuxSignal opens a pidfd first and checks the start time after, so a
// pid recycled at any moment is never signalled.
func linuxSignal(id Identity, sig syscall.Signal) error {
	pidfd, err := PidfdOpen(id.PID)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return nil
		}
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return fmt.Errorf("proctest: pidfd_open %d: %w", id.PID, err)
		}
		// Kernels before 5.3: check, then signal by pid. The window is the
		// time between two system calls, and the pid must be recycled in it.
		if !id.matches() {
			return nil
		}
		return ignoreGone(unix.Kill(id.PID, sig))
	}
	defer PidfdClose(pidfd)
	// The pidfd pins the process it was opened on; if that is still ours,
	// the signal can reach no one else.
	if !id.matches() {
		return nil
	}
	return ignoreGone(unix.PidfdSendSignal(pidfd, sig, nil, 0))
}

// linuxNSpid reads the NSpid line of /proc/PID/status.
func linuxNSpid(pid int) ([]int, error) {
	b, err := ReadFile(procPath(pid, "status"))
	if err != nil {
		return nil, err
	}
	for line := range strings.Lines(string(b)) {
		rest, ok := strings.CutPrefix(line, "NSpid:")
		if !ok {
			continue
		}
		var pids []int
		for _, f := range strings.Fields(rest) {
			n, err := strconv.Atoi(f)
			if err != nil {
				return nil, fmt.Errorf("proctest: NSpid of %d: %w", pid, err)
			}
			pids = append(pids, n)
		}
		return pids, nil
	}
	return []int{pid}, nil
}
