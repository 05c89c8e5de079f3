package proc

import "errors"

// ErrGone says that a process has exited, or was never seen, in /proc.
var ErrGone = errors.New("no such process in /proc (exited already?)")

// ErrAmbiguous says that more than one process fits a report: sandboxes
// with PID namespaces of their own number their processes alike, and
// start times tick only every 10 ms, so two sandboxes started together
// hold processes that look the same from inside.
var ErrAmbiguous = errors.New("more than one process fits")

// Resolve finds, in the test's PID namespace, the process that calls itself
// innerPID in its own namespace and started at start (a process inside a
// sandbox with its own PID namespace reports pids the test cannot use).
// Where several fit, it returns [ErrAmbiguous] rather than guess: use
// [ResolveHolding] where the reporter can hold a file open.
//
// The common case, a process in the test's own namespace, costs one read.
// Otherwise it reads /proc/*/stat once, comparing start times before
// anything else.
func Resolve(innerPID int, start uint64) (Identity, error) {
	return current().resolve(innerPID, start, "")
}

// ResolveHolding is [Resolve] for a reporter that holds file open for as
// long as it runs, through a descriptor that survives exec (whatever its
// mode). A process counts only if it holds file so: that tells apart
// identical sandboxes started in the same clock tick, each reporting
// through a file of its own. It also finds a reporter in a PID namespace
// of its own that read the test's /proc (unshare --pid --fork without
// --mount-proc), and so reported its pid in the test's namespace: the
// process with that pid and start that holds file is the reporter,
// whatever its namespace. Resolve, without a file, never takes a process
// of another namespace by its pid here.
//
// The portable mode cannot read descriptors nor namespaces: it takes the
// process that has innerPID now, if its start is start (any, for 0).
func ResolveHolding(innerPID int, start uint64, file string) (Identity, error) {
	return current().resolve(innerPID, start, file)
}
