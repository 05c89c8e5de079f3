package proc

import (
	"os"
	"sync"
)

// LiveDescendants lists the live processes below the test process.
func LiveDescendants() []Identity {
	var ids []Identity
	for _, pid := range Descendants(os.Getpid()) {
		if id, err := Identify(pid); err == nil && id.Alive() {
			ids = append(ids, id)
		}
	}
	return ids
}

// active holds the trackers of fixtures in use: their processes are their
// own check's business, not a leak of whichever test runs Find.
var active sync.Map // *Tracker -> struct{}

// Tracked reports whether id is a process of a fixture in use: its own
// check judges it, not a process-leak check that runs meanwhile.
func Tracked(id Identity) bool {
	found := false
	active.Range(func(k, _ any) bool {
		t := k.(*Tracker)
		t.mu.Lock()
		seen, ok := t.seen[id.PID]
		found = ok && seen == id
		for _, r := range t.roots {
			found = found || r == id
		}
		cg := t.cgroup
		t.mu.Unlock()
		if !found && cg != nil {
			found = cg.contains(id.PID)
		}
		return !found
	})
	return found
}
