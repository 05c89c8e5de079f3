package monitor

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
)

// identify turns a report into an identity in the test's PID namespace:
// the process that fits the report and holds the fixture's FIFO open.
// gone says the process exited before it could be found.
func identify(e marker.Event, fifo string) (st proc.Stat, id proc.Identity, reason string, gone bool) {
	if proc.Portable() {
		return identifyPortable(e, fifo)
	}
	if e.Stat == marker.Here {
		return identifyHere(e, fifo)
	}
	if e.Stat == "" {
		return st, id, fmt.Sprintf("pid %d could not read /proc/self/stat: mount /proc where the command runs", e.PID), false
	}
	st, err := proc.ParseStat(e.Stat)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), false
	}
	id, err = proc.ResolveHolding(st.PID, st.Start, fifo)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), errors.Is(err, proc.ErrGone)
	}
	return st, id, "", false
}

// identifyHere is identify for a report from a process that saw the
// test's /proc (see [marker.Here]): its pid is one in the test's
// namespace, and the test reads the stat the process did not. The process
// with that pid that holds the FIFO is the reporter: only the fixture's
// processes hold it, and its start, read before, is checked again after
// the look at its descriptors, so the pid was not reused between.
func identifyHere(e marker.Event, fifo string) (st proc.Stat, id proc.Identity, reason string, gone bool) {
	st, err := settled(func() (proc.Stat, error) { return readStatOf(e.PID) })
	if err != nil {
		if ended(err) {
			return st, id, fmt.Sprintf("pid %d: %v", e.PID, proc.ErrGone), true
		}
		return st, id, unreadable(e.PID, err), false
	}
	id, err = proc.ResolveHolding(st.PID, st.Start, fifo)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), errors.Is(err, proc.ErrGone)
	}
	return st, id, "", false
}

// readStatOf reads a process's stat by its pid alone: a variable, for the
// tests of a read that fails.
var readStatOf = proc.ReadStat

// settled reads a process's stat with read, and reads it again, up to
// execWait, while the read fails for another reason than the process's
// end: gopsutil or /proc misreading once is not the reporter gone, which
// would turn a live descendant into one that "exited right after its
// report".
func settled(read func() (proc.Stat, error)) (st proc.Stat, err error) {
	execPolling.Poll(execWait, func() bool {
		st, err = read()
		return err == nil || ended(err)
	})
	return st, err
}

// unreadable says why a report's sender, whose reads kept failing for
// another reason than its end, cannot be proof.
func unreadable(pid int, err error) string {
	return fmt.Sprintf("pid %d: cannot be read %v after its report: %v", pid, execWait, err)
}

// ended reports whether a failed read of a process says it is gone.
func ended(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH)
}
