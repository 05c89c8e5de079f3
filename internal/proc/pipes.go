package proc

import (
	"os"
	"slices"
	"strings"
)

// FD is one open descriptor of a process.
type FD struct {
	Num    int
	Target string // what /proc/PID/fd/N points to: "pipe:[1234]", a path, ...
	Write  bool   // opened for writing (from /proc/PID/fdinfo/N)
}

// FDs lists a process's open descriptors; none in the portable mode,
// which cannot read them.
func FDs(pid int) []FD { return withoutOwn(pid, current().fds(pid, nil)) }

// FDsOn lists a process's descriptors that point at one of targets; it
// reads each descriptor's fdinfo only for those, which is what makes it
// cheap enough for a passing check.
func FDsOn(pid int, targets map[string]string) []FD {
	return withoutOwn(pid, current().fds(pid, targets))
}

// withoutOwn leaves out of the test process's descriptors the pipe to its
// watchdog (see [SetWatchdog]).
func withoutOwn(pid int, fds []FD) []FD {
	if _, fd, ok := watchdog(); ok && pid == os.Getpid() {
		return slices.DeleteFunc(fds, func(f FD) bool { return f.Num == fd })
	}
	return fds
}

// Pipes lists the pipes a process has open, by target ("pipe:[1234]").
// It reads the links only, never fdinfo: cheap enough for every check.
func Pipes(pid int) map[string]bool { return current().pipes(pid) }

// FDTarget is what descriptor fd of the process points to.
func FDTarget(pid, fd int) (string, error) { return current().fdTarget(pid, fd) }

// FDIs reports whether descriptor fd of the process is open on file (the
// same device and inode, whatever path the process sees it by); false
// where it cannot be told, as in the portable mode.
func FDIs(pid, fd int, file string) bool {
	f, err := statFile(file)
	return err == nil && current().fdIs(pid, fd, f)
}

// IsPipe reports whether a descriptor target is a pipe.
func IsPipe(target string) bool { return strings.HasPrefix(target, "pipe:[") }

// PipeHolders scans every process in /proc for a write end of one of the
// pipes in targets (e.g. "pipe:[1234]"), leaving out the pids in skip. It
// reads the whole of /proc: for a failure's diagnosis, never a passing
// check. The portable mode cannot tell, and finds none.
func PipeHolders(targets map[string]string, skip ...int) []Identity {
	return current().pipeHolders(targets, skip)
}
