package proc

import (
	"syscall"

	"github.com/exectest/exectest/internal/envswitch"
	"time"
)

// PortableEnv names the environment variable that forces the portable
// mode on Linux: EXECTEST_PORTABLE=1 (or another value strconv.ParseBool
// reads as true). Off Linux the portable mode is the only one.
const PortableEnv = envswitch.Portable

// Portable reports whether the toolkit runs in its portable mode: process
// facts from gopsutil instead of /proc, identity by pid and creation time,
// no pidfd, no cgroup, no child subreaper, and no look at any process's
// descriptors (see [CannotSee]). It is the only mode off Linux, and on
// Linux with EXECTEST_PORTABLE=1, so that it is tested where the full mode
// runs too.
func Portable() bool { return current() == &portableBackend }

// Mode names the mode for messages: "linux" or "portable".
func Mode() string { return current().name }

// Listable says why the processes of this system cannot be listed, or
// nil: gopsutil lists none on some systems (NetBSD), and only the
// portable mode asks it.
func Listable() error {
	if !Portable() {
		return nil
	}
	return psListable()
}

// CannotSee lists, in the portable mode, what the toolkit cannot see and
// so cannot check; nil in the Linux mode. Every failure and Result of the
// portable mode says it.
func CannotSee() []string {
	if !Portable() {
		return nil
	}
	if !hasGroups { // Windows
		return []string{
			"who holds the command's pipes (no other process's open handles are read)",
			"an orphan whose parent exited that never reported and runs a program without the fixture's token in its arguments (Windows keeps no link to it from the tree)",
			"which ends of the command's pipes the test process still holds (the command's pipes are not known)",
			"the fixture's stdin, stdout and stderr",
		}
	}
	return []string{
		"who holds the command's pipes (no other process's open files are read)",
		"an escaped orphan reparented to init that never reported and runs a program without the fixture's token in its arguments (no cgroup, no child subreaper)",
		"which ends of the command's pipes the test process still holds (the command's pipes are not known)",
		"the fixture's stdin, stdout and stderr",
		"processes in another PID namespace",
	}
}

// backend is where process facts come from: /proc and Linux system calls,
// or gopsutil. One is chosen per test process (see current); everything
// in this package that reads a process goes through it.
type backend struct {
	name string
	// readStat reads a process's stat; fs.ErrNotExist when it is gone.
	readStat func(pid int) (Stat, error)
	// children lists a process's children.
	children func(pid int) []int
	// descendants lists every process below pid.
	descendants func(pid int) []int
	// tree is children for several walks in a row: the portable mode
	// reads every process's parent once for all of them.
	tree func() func(pid int) []int
	// fds lists a process's descriptors (on only, if not nil).
	fds func(pid int, only map[string]string) []FD
	// pipes lists the pipes a process has open, by target.
	pipes func(pid int) map[string]bool
	// pipeHolders lists the processes with a write end of a pipe in
	// targets, but those in skip.
	pipeHolders func(targets map[string]string, skip []int) []Identity
	// fdTarget is what one descriptor points to.
	fdTarget func(pid, fd int) (string, error)
	// fdIs reports whether one descriptor is open on file f; false where
	// it cannot be told.
	fdIs func(pid, fd int, f fileID) bool
	// signal sends sig to id, checked to still be id (see Identity.Signal).
	signal func(id Identity, sig syscall.Signal) error
	// age is how long ago a process that started at start started.
	age func(start uint64) time.Duration
	// nspid lists the pids of a process in each of its PID namespaces.
	nspid func(pid int) ([]int, error)
	// holds reports whether pid holds file f through a descriptor that
	// survives exec.
	holds func(pid int, f fileID) bool
	// resolve finds the reporter of a pid and start (see Resolve).
	resolve func(innerPID int, start uint64, file string) (Identity, error)
	// enableSubreaper makes the test process a child subreaper.
	enableSubreaper func() error
	isSubreaper     func() bool
	// gone reports whether no process has pid any more (a zombie has
	// exited too), for the owner of a stale folder.
	gone func(pid int) bool
	// staleHolders lists the processes that hold a dead run's FIFO.
	staleHolders func(dir, prefix string) []Identity
	// fifoHolders lists the processes that hold a FIFO in one of folders,
	// and holdsFIFOIn says whether one process does.
	fifoHolders func(folders []string) []Identity
	holdsFIFOIn func(pid int, folders []string) bool
	// startedHere lists the processes the test process started and has
	// not waited for yet; false where it cannot tell.
	startedHere func() (map[int]bool, bool)
	// origin says Started or OriginUnknown of a child of the test process
	// that may have been adopted (see OriginOf).
	origin func(Identity) Origin
	// peek reads a process's parent and start time, and no more.
	peek func(pid int) (ppid int, start uint64, err error)
	// pids lists every process.
	pids func() []int
	// argsHold says whether one of a process's arguments holds s (the
	// portable mode's; nil in the Linux mode, which follows the FIFO).
	argsHold func(pid int, s string) bool
	// ignored is the set of signals a process ignores; false where it
	// cannot be read.
	ignored func(pid int) (SignalSet, bool)
}

// fileID names a file by device and inode, as a descriptor on it shows.
type fileID struct{ dev, ino uint64 }
