package cancelpolicy

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// pidfdSignalProcessGroup is PIDFD_SIGNAL_PROCESS_GROUP (Linux 6.9): the
// signal goes to the process group whose struct pid the pidfd holds.
const pidfdSignalProcessGroup = 1 << 2

// pin opens a pidfd on the direct child. The pidfd names the child only if
// the child was not reaped when it was opened: os/exec reaps in Wait, so
// right after Start (started) it surely was not; otherwise
// [os.Process.Signal] says so after the open, and a reaped child gives no
// pin. Without a pin, the group is signalled by number.
func (g *group) pin(started bool) {
	if g.sys.pidfd >= 0 {
		return
	}
	fd, err := unix.PidfdOpen(g.cmd.Process.Pid, 0)
	if err != nil {
		return
	}
	if !started && errors.Is(g.cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone) {
		unix.Close(fd)
		return
	}
	g.sys.pidfd, g.keep = fd, started
}

func (g *group) unpin() {
	if g.sys.pidfd >= 0 {
		unix.Close(g.sys.pidfd)
		g.sys.pidfd = -1
	}
}

// signal sends sig to the command's group. Through the pidfd the kernel
// finds the group by the child's struct pid, not by its number: the
// signal reaches this command's group or nobody (ESRCH), also after the
// child was reaped and its number reused. Kernels before 6.9 reject the
// flag (EINVAL): the group is then signalled by number.
func (g *group) signal(sig syscall.Signal) error {
	if g.sys.pidfd >= 0 && safeGroup(g.cmd.Process.Pid) {
		err := unix.PidfdSendSignal(g.sys.pidfd, sig, nil, pidfdSignalProcessGroup)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.ESRCH):
			return os.ErrProcessDone
		case !errors.Is(err, unix.EINVAL):
			return err
		}
	}
	return g.byNumber(sig)
}

// empty reports whether the group has no live member left. A zombie
// counts as gone: an orphan stays one until its new parent reaps it, and
// a child subreaper (a test binary's) may reap late, while a signal to
// the group still finds it. So where the pidfd does not say the group is
// gone (ESRCH), /proc is read for a member that is not a zombie.
func (g *group) empty() bool {
	pgid := g.cmd.Process.Pid
	if g.sys.pidfd >= 0 && safeGroup(pgid) && errors.Is(unix.PidfdSendSignal(g.sys.pidfd, 0, nil, pidfdSignalProcessGroup), unix.ESRCH) {
		return true
	}
	return !liveMember(pgid)
}

// liveMember reports whether a process that is not a zombie runs in group
// pgid; true where /proc cannot be read, which tells nothing.
func liveMember(pgid int) bool {
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range dir {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		f := statFields("/proc/" + e.Name() + "/stat")
		if len(f) < 18 {
			continue // gone
		}
		if n, err := strconv.Atoi(f[2]); err != nil || n != pgid {
			continue
		}
		// A zombie is gone; one whose main thread alone exited lives
		// while another thread runs on and is not dying (pthread_exit in
		// main; a SIGKILL takes the threads one by one).
		if f[0] != "Z" && f[0] != "X" || f[17] != "1" && liveThread(e.Name()) {
			return true
		}
	}
	return false
}

// statFields are the fields of a stat file after the command's name:
// state, ppid, pgrp, ...; nil where it cannot be read.
func statFields(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	// pid (comm) state ...: comm may hold any byte but ')' at its end.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// liveThread reports whether a thread of process pid other than its main
// one has not exited and is not in exit(2) (the kernel's PF_EXITING in
// its flags).
func liveThread(pid string) bool {
	tasks, _ := os.ReadDir("/proc/" + pid + "/task")
	for _, t := range tasks {
		if t.Name() == pid {
			continue
		}
		f := statFields("/proc/" + pid + "/task/" + t.Name() + "/stat")
		if len(f) < 7 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if flags, err := strconv.ParseUint(f[6], 10, 64); err == nil && flags&pfExiting == 0 {
			return true
		}
	}
	return false
}

// pfExiting is the kernel's PF_EXITING: the thread is in exit(2).
const pfExiting = 0x4
