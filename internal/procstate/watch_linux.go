package procstate

import (
	"fmt"
	"sync"
	"syscall"
	"unsafe"

	"github.com/exectest/exectest/internal/proc"
	"golang.org/x/sys/unix"
)

// A Watch holds a pidfd on one process, opened while the process was alive
// and checked to be the one named, so that how it ended can be asked after
// it is gone, and of a process whose pid was recycled since.
type Watch struct {
	fd int
	id proc.Identity
}

// Open opens a pidfd on the process named by id. The portable mode has
// no pidfd: it fails, and says so.
func Open(id proc.Identity) (*Watch, error) {
	if proc.Portable() {
		return nil, errNoWatch
	}
	fd, err := proc.PidfdOpen(id.PID)
	if err != nil {
		return nil, fmt.Errorf("pidfd_open %d: %w", id.PID, err)
	}
	// The pidfd pins what it was opened on: if that is still id, the
	// watch is on the right process for good.
	if s, err := id.Stat(); err != nil || s.Start != id.Start {
		proc.PidfdClose(fd)
		return nil, fmt.Errorf("pidfd_open %d: %w", id.PID, proc.ErrGone)
	}
	return &Watch{fd: fd, id: id}, nil
}

// Close releases the pidfd.
func (w *Watch) Close() {
	if w != nil && w.fd >= 0 {
		proc.PidfdClose(w.fd)
		w.fd = -1
	}
}

// End says how the process ended, when the kernel can tell: ok is false
// while it lives, and where neither source below has the answer.
//
// Two sources: waitid(2) without reaping, where the process is a zombie
// child of the test process (an orphan of the fixture comes back to it, a
// child subreaper); and the pidfd's exit information (Linux 6.15), for any
// process once whoever waits for it has reaped it.
func (w *Watch) End() (End, bool) {
	if w == nil || w.fd < 0 {
		return End{}, false
	}
	if e, ok := w.waitNoReap(); ok {
		return e, true
	}
	if !EndKnown() {
		return End{}, false
	}
	return w.exitInfo()
}

func (w *Watch) waitNoReap() (End, bool) {
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PIDFD, w.fd, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil); err != nil {
		return End{}, false // ECHILD: not the test process's child
	}
	// si_pid, si_uid and si_status follow the three ints and a pad.
	raw := (*[128]byte)(unsafe.Pointer(&info))
	pid := *(*int32)(unsafe.Pointer(&raw[16]))
	status := int(*(*int32)(unsafe.Pointer(&raw[24])))
	if pid == 0 {
		return End{}, false // not exited yet
	}
	switch info.Code {
	case cldExited:
		return End{Exited: true, Status: status}, true
	case cldKilled, cldDumped:
		return End{Signal: syscall.Signal(status)}, true
	}
	return End{}, false
}

// The si_code values of a child's end.
const (
	cldExited = 1
	cldKilled = 2
	cldDumped = 3
)

// pidfdInfo is struct pidfd_info up to exit_code (PIDFD_INFO_SIZE_VER0).
type pidfdInfo struct {
	Mask     uint64
	CgroupID uint64
	IDs      [11]uint32 // pid, tgid, ppid, then the real, effective, saved and fs uids and gids
	ExitCode int32
}

const (
	pidfdInfoExit = 1 << 3
	// pidfdGetInfo is _IOWR(0xFF, 11, struct pidfd_info) at 64 bytes.
	pidfdGetInfo = 3<<30 | uint(unsafe.Sizeof(pidfdInfo{}))<<16 | 0xFF<<8 | 11
)

func (w *Watch) exitInfo() (End, bool) {
	info := pidfdInfo{Mask: pidfdInfoExit}
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(w.fd), uintptr(pidfdGetInfo), uintptr(unsafe.Pointer(&info)))
	if errno != 0 || info.Mask&pidfdInfoExit == 0 {
		return End{}, false // before 6.15, or not reaped yet
	}
	ws := unix.WaitStatus(info.ExitCode)
	switch {
	case ws.Exited():
		return End{Exited: true, Status: ws.ExitStatus()}, true
	case ws.Signaled():
		return End{Signal: ws.Signal()}, true
	}
	return End{}, false
}

// EndKnown reports whether the kernel tells how any process ended, once
// reaped, through a pidfd opened before (PIDFD_INFO_EXIT, Linux 6.15):
// then [Watch.End] answers for a process that another process reaped,
// not only for the test process's own zombie children.
//
// A variable, so that a test can see what an older kernel gives.
var EndKnown = sync.OnceValue(func() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var major, minor int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 6 || major == 6 && minor >= 15
})
