//go:build unix

package proc

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// groupAndSession asks the system, as gopsutil does not say.
func groupAndSession(pid int) (pgid, sid int) {
	pgid, _ = unix.Getpgid(pid)
	sid, _ = unix.Getsid(pid)
	return pgid, sid
}

// hasGroups says that a process's line names its group and session
// (see Facts.String).
const hasGroups = true

// maxFD bounds the look for open descriptors where /dev/fd cannot list
// them (a FreeBSD without fdescfs shows 0 to 2 only).
const maxFD = 4096

// ownFDs lists the test process's open descriptors by fstat(2), as the
// portable mode may: a pipe or FIFO as "pipe:[INODE]" (what /proc shows of
// a pipe), anything else as "file:[DEV:INODE]"; Write from its access
// mode. Which descriptors to look at come from /dev/fd where it lists
// them all, else 0 to maxFD.
func ownFDs() []FD {
	var nums []int
	if entries, err := os.ReadDir("/dev/fd"); err == nil && len(entries) > 3 {
		for _, e := range entries {
			if n, err := strconv.Atoi(e.Name()); err == nil {
				nums = append(nums, n)
			}
		}
	} else {
		for n := range maxFD {
			nums = append(nums, n)
		}
	}
	var fds []FD
	for _, n := range nums {
		var st unix.Stat_t
		if unix.Fstat(n, &st) != nil {
			continue // closed, or the listing's own, closed since
		}
		flags, err := unix.FcntlInt(uintptr(n), unix.F_GETFL, 0)
		if err != nil {
			continue
		}
		target := fmt.Sprintf("file:[%d:%d]", uint64(st.Dev), uint64(st.Ino))
		if uint32(st.Mode)&unix.S_IFMT == unix.S_IFIFO {
			target = fmt.Sprintf("pipe:[%d]", uint64(st.Ino))
		}
		fds = append(fds, FD{Num: n, Target: target, Write: flags&unix.O_ACCMODE != unix.O_RDONLY})
	}
	return fds
}
