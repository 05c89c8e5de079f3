//go:build unix

package watchdog

import (
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// pipeFD is the watchdog's descriptor of the pipe's read end.
const pipeFD = 3

// procAttr starts the watchdog with /dev/null as its stdio and r, the
// pipe's read end, as descriptor pipeFD, in a process group of its own:
// Ctrl-C at a terminal goes to the foreground group, the test process's,
// and must not end the watchdog before it has cleaned up after it. in is
// the descriptor the watchdog reads.
func procAttr(null, r *os.File) (attr *os.ProcAttr, in uintptr) {
	return &os.ProcAttr{
		Dir:   "/", // it holds no test's working directory
		Files: []*os.File{null, null, null, r},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	}, pipeFD
}

// ignoreSignals keeps the watchdog alive through what ends a test run
// from outside (a kill of the whole session or job sends SIGTERM or
// SIGHUP to all of it): only the pipe's EOF ends it, after its cleanup.
func ignoreSignals() { signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP) }

// exit ends the watchdog at once: not os.Exit, which under -race sleeps a
// second more and under -cover writes coverage data.
func exit(code int) { syscall.Exit(code) }

// executable is the test binary to start as the watchdog: on Linux
// /proc/self/exe, which execs even a binary deleted since it started.
func executable() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	return os.Executable()
}

// closeInherited closes the descriptors the watchdog inherited beyond its
// four: those the test process had open without close-on-exec (from its
// own parent: a CI runner's pipe, a make jobserver's). Held for the
// watchdog's life, they would outlive the test process, and a reader
// waiting for their EOF would wait for the watchdog. The runtime's own
// descriptors are close-on-exec, and stay.
func closeInherited() {
	for _, fd := range openFDs() {
		if fd <= pipeFD {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			unix.Close(fd)
		}
	}
}

// maxFD bounds the look for open descriptors where no folder lists them.
const maxFD = 1024

// openFDs lists the open descriptors: from /proc/self/fd or /dev/fd where
// they list them all, else 0 to maxFD.
func openFDs() []int {
	for _, dir := range []string{"/proc/self/fd", "/dev/fd"} {
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) <= 3 {
			continue
		}
		var fds []int
		for _, e := range entries {
			if n, err := strconv.Atoi(e.Name()); err == nil {
				fds = append(fds, n)
			}
		}
		return fds
	}
	fds := make([]int, maxFD)
	for i := range fds {
		fds[i] = i
	}
	return fds
}
