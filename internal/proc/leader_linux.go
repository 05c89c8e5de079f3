package proc

import (
	"slices"
	"strconv"
	"strings"
)

// A process whose main thread exited while its other threads run on (a
// C program's pthread_exit in main) shows its stat as a zombie's, and its
// /proc/PID/fd and cmdline, the main thread's, as empty: what it holds is
// seen only through one of its live threads, /proc/PID/task/TID/.

// fdDir is the folder that lists pid's descriptors: /proc/PID/fd, or,
// where that lists none and the main thread has exited, a live thread's
// (see [Stat.LeaderExited]). A process with no descriptor at all costs
// a stat more.
func fdDir(pid int) string {
	dir := procPath(pid, "fd")
	if names, err := ReadDirNames(dir); err == nil && len(names) > 0 {
		return dir
	}
	if tid := liveThread(pid); tid > 0 {
		return procPath(pid, "task/"+strconv.Itoa(tid)+"/fd")
	}
	return dir
}

// liveThread is a thread of pid that has not exited and is not dying,
// where pid's main thread has exited: 0 where the main thread runs, or no
// other thread lives on. A SIGKILL ends the threads one by one: the main
// thread may be a zombie while the others still wait to take the signal
// (pending) or are in exit(2) (PF_EXITING); the process is dead then.
func liveThread(pid int) int {
	s, err := linuxReadStat(pid)
	if err != nil || !s.LeaderExited() {
		return 0
	}
	tasks, _ := ReadDirNames(procPath(pid, "task"))
	slices.Sort(tasks)
	for _, t := range tasks {
		tid, err := strconv.Atoi(t)
		if err != nil || tid == pid {
			continue
		}
		b, err := ReadFile(procPath(pid, "task/"+t+"/stat"))
		if err != nil {
			continue
		}
		if ts, err := ParseStat(string(b)); err == nil && !ts.Zombie() && ts.Flags&pfExiting == 0 && !killPending(pid, t) {
			return tid
		}
	}
	return 0
}

// threadCmdline is pid's command line read through a live thread, where
// its main thread has exited (its own reads empty); "" otherwise.
func threadCmdline(pid int) string {
	tid := liveThread(pid)
	if tid == 0 {
		return ""
	}
	b, err := ReadFile(procPath(pid, "task/"+strconv.Itoa(tid)+"/cmdline"))
	if err != nil {
		return ""
	}
	return joinArgs(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"))
}

// killPending reports whether a SIGKILL waits to be taken by thread tid
// of pid: the kernel queues one on every thread of a group it kills.
func killPending(pid int, tid string) bool {
	b, err := ReadFile(procPath(pid, "task/"+tid+"/status"))
	if err != nil {
		return false
	}
	const sigkill = 1 << (9 - 1)
	for _, line := range strings.Split(string(b), "\n") {
		name, val, ok := strings.Cut(line, ":")
		if !ok || name != "SigPnd" && name != "ShdPnd" {
			continue
		}
		if mask, err := strconv.ParseUint(strings.TrimSpace(val), 16, 64); err == nil && mask&sigkill != 0 {
			return true
		}
	}
	return false
}
