package monitor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/exectest/exectest/internal/proc"
	"syscall"
)

// descendantRole is what the fixture's shape makes its descendant.
func (m *Monitor) descendantRole() Role {
	switch sp := m.spec; {
	case sp.Escape:
		return EscapedDescendant
	case sp.DoubleFork:
		return DaemonDescendant
	case sp.JobControl:
		return GroupedDescendant
	case sp.Launch:
		return OrphanedDescendant
	case sp.IgnoreTerm:
		return TermIgnoringDescendant
	}
	return Descendant
}

// notInShape says why the descendant, having reported alive (and, for
// the shell, become the sleep), is not in the shape its options ask for,
// or "" when it is: without that, a check of a shape would test the
// default one. The default shape costs nothing here. Read in the test's
// PID namespace, where the fixture child's stat was read too.
func (m *Monitor) notInShape(id proc.Identity) string {
	sp := m.spec
	if !sp.Launch && !sp.IgnoreTerm && !sp.JobControl && !sp.DoubleFork {
		return ""
	}
	s, err := id.Stat()
	if err != nil {
		return "" // gone: the cancel, or the lapse at the cancel, says so
	}
	var why []string
	if (sp.Launch || sp.DoubleFork) && m.startedIt(s.PPID) {
		why = append(why, fmt.Sprintf("parent: got pid %d, still the fixture's, want it gone (the descendant orphaned)", s.PPID))
	}
	if sp.IgnoreTerm { // the portable mode cannot read dispositions: ok is false there
		want := proc.SignalsOf(syscall.SIGINT, syscall.SIGTERM)
		if ign, ok := proc.IgnoredSignals(id.PID); ok && ign&want != want {
			why = append(why, fmt.Sprintf("SigIgn: got %016x, want SIGINT and SIGTERM (%016x) among them", uint64(ign), uint64(want)))
		}
	}
	if sp.JobControl {
		if s.PGID != s.PID {
			why = append(why, fmt.Sprintf("pgid: got %d, want its own pid %d", s.PGID, s.PID))
		}
		if m.child.PID != 0 && s.SID != m.child.SID {
			why = append(why, fmt.Sprintf("sid: got %d, want the fixture child's %d", s.SID, m.child.SID))
		}
	}
	if sp.DoubleFork && s.SID != s.PID {
		why = append(why, fmt.Sprintf("sid: got %d, want its own pid %d", s.SID, s.PID))
	}
	if len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("pid %d %s %s: %s", id.PID, NotInShapeText, m.descendantRole().Noun(), strings.Join(why, "; "))
}

// NotInShapeText is the words of a failure of notInShape: the fix line
// depends on them (see exectest's fixUnproved).
const NotInShapeText = "reported alive but not as a"

// startedIt reports whether pid is the fixture child or another fixture
// process (the double fork's intermediate): its command line carries the
// fixture's token. Only the reader goroutine writes m.child.
func (m *Monitor) startedIt(pid int) bool {
	if m.child.PID != 0 && pid == m.child.PID {
		// Windows keeps an orphan's ppid, the pid of its dead parent: the
		// fixture child is its parent only while it lives.
		st, err := proc.ReadStat(pid)
		return err == nil && st.Start == m.child.Start && !st.Zombie()
	}
	b, err := proc.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && strings.Contains(string(b), m.token)
}
