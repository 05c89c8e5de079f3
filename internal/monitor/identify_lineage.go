package monitor

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
)

// identifyPortable is identify for the portable mode: the fixture reports
// its pid alone (it reads no /proc), and the test cannot see who holds the
// FIFO, so the reporter is the process that has that pid now, named by
// its creation time from then on. What keeps a stranger out is where it
// stands: a fixture child must be below the test process (see belowTest),
// and a descendant no older than the first fixture child (see
// monitor.olderThanChild).
func identifyPortable(e marker.Event, fifo string) (st proc.Stat, id proc.Identity, reason string, gone bool) {
	id, err := proc.ResolveHolding(e.PID, 0, fifo)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), errors.Is(err, proc.ErrGone)
	}
	st, err = settled(func() (proc.Stat, error) { return statOf(id) })
	switch {
	case err != nil && ended(err):
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), true
	case err != nil:
		return st, id, unreadable(e.PID, err), false
	}
	if (e.Kind == marker.Started || e.Kind == marker.Running) && !belowTest(st) {
		return st, id, fmt.Sprintf("pid %d: %s (ppid %d), so not a fixture child the test started", e.PID, NotBelowTestText, st.PPID), false
	}
	return st, id, "", false
}

// NotBelowTestText starts the reason a report is refused for where its
// process stands; the fix line looks for it.
const NotBelowTestText = "portable mode: not below the test process"

// maxDepth bounds the walk up the parents: a fixture child is a few
// levels below the test process (a shell, a runner, a sandbox).
const maxDepth = 32

// belowTest reports whether the process of st descends from the test
// process, by its parents' pids: the fixture child's parents all live
// while it reports, each the parent of the one below.
func belowTest(st proc.Stat) bool {
	self := os.Getpid()
	for range maxDepth {
		if st.PPID == self {
			return true
		}
		if st.PPID <= 1 {
			return false
		}
		parent, err := proc.ReadStat(st.PPID)
		if err != nil {
			return false
		}
		st = parent
	}
	return false
}

// olderThanChild says why a process that reported alive in the portable
// mode cannot be the fixture's descendant, or "": it started before the
// first fixture child did, or, with no fixture child known (its report
// refused: a pid from a PID namespace of the sandbox's own names
// another process here, a kernel thread), before the test process. (The
// Linux mode knows it by the FIFO it holds.)
func (m *Monitor) olderThanChild(id proc.Identity, st proc.Stat) string {
	m.mu.Lock()
	child := m.child
	m.mu.Unlock()
	if child.PID != 0 && st.Start < child.Start {
		return fmt.Sprintf("pid %d: portable mode: started before the fixture child (pid %d), so not its descendant", id.PID, child.PID)
	}
	if self, err := selfStat(); child.PID == 0 && err == nil && st.Start < self.Start {
		return fmt.Sprintf("pid %d: portable mode: started before the test process (pid %d), so not a descendant of its fixture", id.PID, self.PID)
	}
	return ""
}

// selfStat is the test process's own stat, read once.
var selfStat = sync.OnceValues(func() (proc.Stat, error) { return proc.ReadStat(os.Getpid()) })
