package proc

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// linuxOrigin tells a child of the test process it knows was started by
// it from one it cannot tell (see [OriginOf]): a child of a thread other
// than the main one was forked there (the kernel gives every orphan a
// subreaper adopts to its main thread); one Go holds a pidfd on was
// started by os.StartProcess and not waited for yet.
func linuxOrigin(id Identity) Origin {
	self := os.Getpid()
	if tid := parentThread(self, id.PID); tid > 0 && tid != self {
		return Started
	}
	if started, ok := linuxStartedHere(); ok && started[id.PID] {
		return Started
	}
	return OriginUnknown
}

// parentThread is the thread of pid whose child child is, 0 if none.
func parentThread(pid, child int) int {
	tasks, _ := ReadDirNames(procPath(pid, "task"))
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t); err == nil && slices.Contains(childrenOfThread(pid, tid), child) {
			return tid
		}
	}
	return 0
}

// linuxStartedHere lists the processes the test process holds a pidfd
// for, the toolkit's aside: those os.StartProcess started and nobody has
// waited for yet. ok is false where Go starts processes
// without one.
func linuxStartedHere() (started map[int]bool, ok bool) {
	if !goUsesPidfds() {
		return nil, false
	}
	return ownPidfds(), true
}

// goUsesPidfds says whether Go, in this process, keeps a pidfd for every
// process it starts or finds: os.FindProcess of the test process itself
// then holds one.
var goUsesPidfds = sync.OnceValue(func() bool {
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		return false
	}
	defer p.Release()
	return ownPidfds()[os.Getpid()]
})

// ownPidfds lists the pids the test process holds a pidfd for, from
// /proc/self/fdinfo's Pid line, the toolkit's own pidfds left out.
func ownPidfds() map[int]bool {
	pids := map[int]bool{}
	toolkitPidfds.RLock()
	defer toolkitPidfds.RUnlock()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return pids
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && toolkitPidfds.fds[fd] {
			continue
		}
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || target != "anon_inode:[pidfd]" && !strings.HasPrefix(target, "pidfd:") {
			continue
		}
		info, err := ReadFile("/proc/self/fdinfo/" + e.Name())
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(info)) {
			if v, ok := strings.CutPrefix(line, "Pid:"); ok {
				if pid, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && pid > 0 {
					pids[pid] = true
				}
			}
		}
	}
	return pids
}

// adoptedBy lists the children of the test process's main thread, where
// the kernel puts every orphan it adopts (the first live thread of the
// subreaper, in thread list order, which starts at the main thread; Go's
// never exits): one read, where [Children] reads one per thread. A
// process os/exec started is a child of whichever thread forked it.
func adoptedBy() []int {
	self := os.Getpid()
	return childrenOfThread(self, self)
}
