package proc

import (
	"os"
	"strconv"
	"strings"
)

// FD is one open descriptor of a process.
type FD struct {
	Num    int
	Target string // what /proc/PID/fd/N points to: "pipe:[1234]", a path, ...
	Write  bool   // opened for writing (from /proc/PID/fdinfo/N)
}

// FDs lists a process's open descriptors.
func FDs(pid int) []FD { return fds(pid, nil) }

// FDsOn lists a process's descriptors that point at one of targets; it
// reads each descriptor's fdinfo only for those, which is what makes it
// cheap enough for a passing check.
func FDsOn(pid int, targets map[string]string) []FD { return fds(pid, targets) }

func fds(pid int, only map[string]string) []FD {
	entries, err := os.ReadDir(procPath(pid, "fd"))
	if err != nil {
		return nil
	}
	var fds []FD
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		target, err := os.Readlink(procPath(pid, "fd/"+e.Name()))
		if err != nil {
			continue
		}
		if _, ok := only[target]; only != nil && !ok {
			continue
		}
		fds = append(fds, FD{Num: n, Target: target, Write: writable(pid, e.Name())})
	}
	return fds
}

// Pipes lists the pipes a process has open, by target ("pipe:[1234]").
// It reads the links only, never fdinfo: cheap enough for every check.
func Pipes(pid int) map[string]bool {
	entries, err := os.ReadDir(procPath(pid, "fd"))
	if err != nil {
		return nil
	}
	pipes := map[string]bool{}
	for _, e := range entries {
		if target, err := os.Readlink(procPath(pid, "fd/"+e.Name())); err == nil && IsPipe(target) {
			pipes[target] = true
		}
	}
	return pipes
}

// writable reads the access mode from fdinfo's flags (octal).
func writable(pid int, fd string) bool {
	b, err := os.ReadFile(procPath(pid, "fdinfo/"+fd))
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

// FDTarget is what descriptor fd of the process points to.
func FDTarget(pid, fd int) (string, error) {
	return os.Readlink(procPath(pid, "fd/"+strconv.Itoa(fd)))
}

// IsPipe reports whether a descriptor target is a pipe.
func IsPipe(target string) bool { return strings.HasPrefix(target, "pipe:[") }

// PipeHolders scans every process in /proc for a write end of one of the
// pipes in targets (e.g. "pipe:[1234]"), leaving out the pids in skip. It
// reads the whole of /proc: for a failure's diagnosis, never a passing
// check.
func PipeHolders(targets map[string]string, skip ...int) []Identity {
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
		for _, fd := range FDs(pid) {
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
