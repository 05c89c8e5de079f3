package monitor

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
)

// Snapshot is what the monitor knows at one moment.
type Snapshot struct {
	Changed    <-chan struct{}   // closed at the monitor's next event, and closed already once it is closed
	Closed     bool              // the monitor is closed (see Monitor.Close): nothing will change any more
	Started    int               // fixture children that reported they started
	Alive      int               // "alive" reports read, before the checks that make one a proof
	Proof      *Proof            // the descendant's proof of life, nil until it proved it runs
	Exit       string            // the direct child's last "exit" status, "" until it reports one
	Failures   []string          // what the fixture and the checks of its reports found wrong
	Known      []Known           // the processes identified as the fixture's
	Pipes      map[string]string // the command's own stdio pipes: "pipe:[1234]" -> "stdout"
	Child      proc.Stat         // the first fixture child as it started, in the test's namespace
	ChildWatch *procstate.Watch  // on that child: how it ended
	Notes      []string          // what the tracker could not do, for the failure's tracker line
	stdio      stdioSeen
	childStdio [3]string
}

// Snapshot returns what the monitor knows now.
func (m *Monitor) Snapshot() Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Snapshot{
		Changed: m.changed, Closed: m.closed, Started: m.started, Alive: m.aliveReports, Proof: m.proof, Exit: m.exit,
		Failures: slices.Clone(m.failures), Known: slices.Clone(m.known), Pipes: maps.Clone(m.pipes),
		Child: m.child, ChildWatch: m.childWatch, Notes: slices.Clone(m.notes),
		stdio:      stdioSeen{slices.Clone(m.stdio.fds), m.stdio.unread},
		childStdio: m.childStdio,
	}
}

// StdioWithoutPipes returns what the fixture children's stdio were, and
// whether all of them were seen and none is a pipe opened during run.
func (s Snapshot) StdioWithoutPipes() ([]string, bool) {
	return s.stdio.fds, len(s.stdio.fds) > 0 && !s.stdio.unread && len(s.Pipes) == 0
}

// IDs lists the identities of the known processes.
func (s Snapshot) IDs() []proc.Identity {
	ids := make([]proc.Identity, len(s.Known))
	for i, k := range s.Known {
		ids[i] = k.ID
	}
	return ids
}

// Role says what the fixture knows a process as.
func (s Snapshot) Role(id proc.Identity) Role {
	for _, k := range s.Known {
		if k.ID == id {
			return k.Role
		}
	}
	return FixtureProcess
}

// String says what the fixture has reported so far, for messages.
func (s Snapshot) String() string { return s.Explain("") }

// Explain is String for a command that ran, where ran says how it ended
// without a report from the fixture child (see RanUnreported); "" if
// nothing says it ran.
func (s Snapshot) Explain(ran string) string {
	var parts []string
	switch {
	case s.Started == 0 && ran != "":
		parts = append(parts, ran)
	case s.Started == 0:
		parts = append(parts, "no report from the fixture child: run did not start the command, or the command ended (or was killed) before its first line")
	}
	for _, k := range s.Known {
		parts = append(parts, fmt.Sprintf("%s pid %d reported", k.Role, k.ID.PID))
	}
	if s.Proof == nil && s.Started > 0 {
		parts = append(parts, "no proof of life from the descendant")
	}
	for _, f := range s.Failures {
		parts = append(parts, "fixture failure: "+f)
	}
	if s.Exit != "" {
		parts = append(parts, "the fixture child saw the descendant exit with status "+s.Exit)
	}
	return strings.Join(parts, "; ")
}

// Lapse says why the descendant's proof of life no longer holds, or ""
// while it does: it must still be the process that reported, alive and
// not exiting, running the program it proved to run, and hold what the
// command's stdout and stderr are. Asked at the cancel: a descendant that
// died before it (a /bin/sleep that exits at once, a short lifetime) tests
// nothing.
func (s Snapshot) Lapse() string {
	p := s.Proof
	if p == nil {
		return ""
	}
	st, err := p.ID.Stat()
	switch {
	case err != nil || st.Zombie():
		return fmt.Sprintf("pid %d had exited", p.ID.PID)
	case st.Exiting():
		return fmt.Sprintf("pid %d was exiting", p.ID.PID)
	case st.Comm != p.Comm:
		return fmt.Sprintf("pid %d: program: got %q, want %q", p.ID.PID, st.Comm, p.Comm)
	}
	for fd := 1; fd <= 2; fd++ {
		want := s.childStdio[fd]
		got, err := proc.FDTarget(p.ID.PID, fd)
		if want != "" && err == nil && got != want {
			return fmt.Sprintf("pid %d: fd %d: got %s, want the command's %s", p.ID.PID, fd, got, want)
		}
	}
	return ""
}
