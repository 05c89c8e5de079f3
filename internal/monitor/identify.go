package monitor

import (
	"errors"
	"fmt"

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
	st, err := proc.ReadStat(e.PID)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, proc.ErrGone), true
	}
	id, err = proc.ResolveHolding(st.PID, st.Start, fifo)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), errors.Is(err, proc.ErrGone)
	}
	return st, id, "", false
}
