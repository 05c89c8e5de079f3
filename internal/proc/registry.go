package proc

import (
	"os"
	"sync"
)

// LiveDescendants lists the live processes below the test process, but
// its watchdog (see [SetWatchdog]).
func LiveDescendants() []Identity {
	w, _, _ := watchdog()
	self := os.Getpid()
	var ids []Identity
	for _, pid := range Descendants(self) {
		s, err := ReadStat(pid)
		if err != nil {
			continue
		}
		id := Identity{PID: pid, Start: s.Start}
		if s.PPID != self {
			// Adopted, should its parent exit: see OriginOf.
			seenWithParent(id)
		}
		if id != w && !s.Zombie() {
			ids = append(ids, id)
		}
	}
	return ids
}

// own is what the toolkit keeps in the test process for itself: its
// watchdog (package internal/watchdog) and the write end of the pipe to
// it. Neither is any test's: no check reports them.
var own struct {
	sync.Mutex
	watchdog Identity
	fd       int // the pipe's descriptor, if set
	set      bool
}

// SetWatchdog records the test process's watchdog and the descriptor of
// its pipe in the test process: [LiveDescendants] leaves the one out,
// [FDs] and [FDsOn] of the test process the other.
func SetWatchdog(id Identity, fd int) {
	own.Lock()
	defer own.Unlock()
	own.watchdog, own.fd, own.set = id, fd, true
}

// watchdog is what [SetWatchdog] recorded; ok is false before.
func watchdog() (id Identity, fd int, ok bool) {
	own.Lock()
	defer own.Unlock()
	return own.watchdog, own.fd, own.set
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
