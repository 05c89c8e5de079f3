package check

import (
	"os"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/proctest"
)

// A survivor described when run returned, before the descendant's late
// report, takes the role that report gives it; one described with a role
// keeps it, and one nothing reported stays a mere fixture process.
func TestRelabelTakesTheLateReportsRole(t *testing.T) {
	early := proc.Identity{PID: 101, Start: 7}
	known := proc.Identity{PID: 102, Start: 8}
	unknown := proc.Identity{PID: 103, Start: 9}
	d := func(id proc.Identity, r monitor.Role) described {
		return described{Process: proctest.Process{PID: id.PID, Start: id.Start, Role: r.String()}, role: r}
	}
	ps := []described{d(early, monitor.FixtureProcess), d(known, monitor.FixtureChild), d(unknown, monitor.FixtureProcess)}
	s := monitor.Snapshot{Known: []monitor.Known{
		{ID: early, Role: monitor.OrphanedDescendant},
		{ID: known, Role: monitor.Descendant},
		{ID: proc.Identity{PID: unknown.PID, Start: unknown.Start + 1}, Role: monitor.Descendant}, // a recycled pid
	}}
	got := relabel(ps, s)
	want := []monitor.Role{monitor.OrphanedDescendant, monitor.FixtureChild, monitor.FixtureProcess}
	for i, p := range got {
		if p.role != want[i] || p.Role != want[i].String() {
			t.Errorf("pid %d: got role %v (%q), want %v", p.PID, p.role, p.Role, want[i])
		}
	}
}

// A command line unreadable at the description (a process in the middle
// of its exec) is read again for the same process; one of a process that
// is not the same (a recycled pid) stays as it was.
func TestRelabelReadsAnUnreadCommandLine(t *testing.T) {
	self, err := proc.Identify(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	other := proc.Identity{PID: self.PID, Start: self.Start + 1}
	d := func(id proc.Identity) described {
		return described{Process: proctest.Process{PID: id.PID, Start: id.Start, Role: monitor.FixtureChild.String(), Cmdline: "[sleep]"}, role: monitor.FixtureChild}
	}
	got := relabel([]described{d(self), d(other)}, monitor.Snapshot{})
	if c := got[0].Cmdline; strings.HasPrefix(c, "[") || !strings.Contains(c, os.Args[0]) {
		t.Errorf("same process: got command line %q, want it read again (%s ...)", c, os.Args[0])
	}
	if c := got[1].Cmdline; c != "[sleep]" {
		t.Errorf("recycled pid: got command line %q, want [sleep] kept", c)
	}
}
