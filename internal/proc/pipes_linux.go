package proc

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

func linuxFDs(pid int, only map[string]string) []FD {
	if pid == os.Getpid() && only != nil {
		if fds, ok := ownFDsOn(only); ok {
			return fds
		}
	}
	return procFDs(pid, only)
}

// procFDs is linuxFDs read from /proc alone: a link, and for a match its
// fdinfo, per descriptor.
// A process whose main thread exited is read through a live thread (see
// fdDir).
func procFDs(pid int, only map[string]string) []FD {
	dir := fdDir(pid)
	entries, err := ReadDirNames(dir)
	if err != nil {
		return nil
	}
	slices.Sort(entries)
	info := strings.TrimSuffix(dir, "fd") + "fdinfo/"
	var fds []FD
	for _, e := range entries {
		n, err := strconv.Atoi(e)
		if err != nil {
			continue
		}
		target, err := os.Readlink(dir + "/" + e)
		if err != nil {
			continue
		}
		if _, ok := only[target]; only != nil && !ok {
			continue
		}
		fds = append(fds, FD{Num: n, Target: target, Write: writable(info + e)})
	}
	return fds
}

// linuxPipes lists the pipes a process has open, from the links only.
func linuxPipes(pid int) map[string]bool {
	if pid == os.Getpid() {
		return ownPipes()
	}
	return procPipes(pid)
}

// procPipes is linuxPipes read from /proc alone: a link per descriptor.
func procPipes(pid int) map[string]bool {
	dir := fdDir(pid)
	entries, err := ReadDirNames(dir)
	if err != nil {
		return nil
	}
	slices.Sort(entries)
	pipes := map[string]bool{}
	for _, e := range entries {
		if target, err := os.Readlink(dir + "/" + e); err == nil && IsPipe(target) {
			pipes[target] = true
		}
	}
	return pipes
}

// writable reads the access mode from an fdinfo file's flags (octal).
func writable(fdinfo string) bool {
	b, err := ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&3 != 0 // O_WRONLY or O_RDWR
		}
	}
	return false
}

func linuxFDTarget(pid, fd int) (string, error) {
	return os.Readlink(procPath(pid, "fd/"+strconv.Itoa(fd)))
}

func linuxFDIs(pid, fd int, f fileID) bool {
	var st unix.Stat_t
	return unix.Stat(procPath(pid, "fd/"+strconv.Itoa(fd)), &st) == nil && uint64(st.Dev) == f.dev && uint64(st.Ino) == f.ino
}

// linuxPipeHolders scans every process in /proc (see PipeHolders).
func linuxPipeHolders(targets map[string]string, skip []int) []Identity {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var ids []Identity
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || contains(skip, pid) {
			continue
		}
		for _, fd := range linuxFDs(pid, nil) {
			if _, ok := targets[fd.Target]; ok && fd.Write {
				if id, err := Identify(pid); err == nil {
					ids = append(ids, id)
				}
				break
			}
		}
	}
	return ids
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
