package proc

import (
	"os"
	"sync"
	"sync/atomic"
)

// Origin is how a process came to be a child of the test process, as far
// as the toolkit can tell. The kernel keeps no record of a process's
// first parent: reparenting overwrites it. So a label rests on facts the
// toolkit saw, never on the lack of one (see [OriginOf]).
type Origin int

const (
	// NotChild: its parent is another process.
	NotChild Origin = iota
	// Started: its parent has been the test process since it started.
	Started
	// Adopted: it came to the test process (a child subreaper, or the
	// init of its PID namespace) when its own parent exited.
	Adopted
	// OriginUnknown: a child of the test process, which may have started
	// it or adopted it; no fact the toolkit has tells which.
	OriginUnknown
)

func (o Origin) String() string {
	switch o {
	case NotChild:
		return "not a child"
	case Started:
		return "started"
	case Adopted:
		return "adopted"
	}
	return "cannot tell"
}

// OriginOf says how the process id, whose parent is ppid, came to it:
//
//   - [NotChild] when ppid is not the test process (and the toolkit then
//     remembers id as seen with another parent);
//   - [Adopted] when the toolkit saw id earlier with another parent: a
//     process's parent changes only when its parent exits;
//   - [Started] when the test process cannot adopt (no child subreaper
//     ever, not a PID namespace's init), when id is a child of one of the
//     test process's threads but the main one (the kernel gives an
//     orphan to a subreaper's first live thread, the main one, which Go
//     never ends), or when Go holds a pidfd on it (os.StartProcess keeps
//     one until Wait), now or at an earlier look of the toolkit;
//   - [OriginUnknown] otherwise: Go's pidfd closes at Wait, Release or
//     when the garbage collector frees the *os.Process, so that a process
//     the test process started and dropped looks like an orphan.
func OriginOf(id Identity, ppid int) Origin {
	if ppid != os.Getpid() {
		seenWithParent(id)
		return NotChild
	}
	if o, ok := recorded(id); ok {
		if o == NotChild {
			return Adopted
		}
		return o
	}
	if !canAdopt() {
		return Started
	}
	o := current().origin(id)
	if o == Started {
		record(id, Started)
	}
	return o
}

// NoteOrigin reads id's parent, and theirs up to the test process, and
// remembers what they say for later reports: a process seen with another
// parent and later a child of the test process was adopted (a sandbox's
// init whose maker was killed), and one seen started by the test process
// stays started after Go's pidfd on it is gone. Call it where the toolkit
// first meets a process (a fixture's report), while its starter still
// holds it.
func NoteOrigin(id Identity) {
	for range maxLineage {
		s, err := id.Stat()
		if err != nil || OriginOf(id, s.PPID) != NotChild || s.PPID <= 1 {
			return
		}
		if id, err = Identify(s.PPID); err != nil {
			return
		}
	}
}

// maxLineage bounds the walk up from a process to the test process: a
// fixture reports from a few levels below it.
const maxLineage = 16

// GoHoldsPidfd reports whether Go holds a pidfd on pid in the test
// process (the toolkit's own left out): os.StartProcess keeps one until
// Wait, Release or the garbage collector frees the *os.Process. False
// where it cannot tell.
func GoHoldsPidfd(pid int) bool {
	started, _ := current().startedHere()
	return started[pid]
}

// everSubreaper is set once the test process is known to be a child
// subreaper: orphans it adopted then stay its children even if something
// turns the setting off later.
var everSubreaper atomic.Bool

// canAdopt says whether an orphan may ever have come to the test process:
// it is or was a child subreaper, or it is the init of its PID namespace.
func canAdopt() bool {
	if everSubreaper.Load() || os.Getpid() == 1 {
		return true
	}
	if IsSubreaper() {
		everSubreaper.Store(true)
		return true
	}
	return false
}

// origins is what the toolkit saw of processes below the test process:
// Started for a child it saw started by the test process, NotChild for a
// process it saw with another parent, OriginUnknown for a child of the
// main thread it met without Go's pidfd on it and never saw with another
// parent (no later look can tell more: see [ReapAdopted]). Entries of
// processes gone are dropped as the map grows.
var origins struct {
	sync.Mutex
	m       map[Identity]Origin
	pruneAt int
}

// minPrune is the size under which the records are never pruned.
const minPrune = 256

// record remembers o of id. What was seen with another parent stays so:
// a child of the test process never gets another parent while the test
// process lives.
func record(id Identity, o Origin) {
	origins.Lock()
	if origins.m == nil {
		origins.m = map[Identity]Origin{}
	}
	if _, ok := origins.m[id]; !ok || o == NotChild {
		origins.m[id] = o
	}
	due := len(origins.m) >= max(origins.pruneAt, minPrune)
	origins.Unlock()
	if due {
		pruneOrigins()
	}
}

// seenWithParent records that id had a parent other than the test
// process: where the test process can adopt (now, or once it is made a
// child subreaper), that parent's exit makes it an adopted child.
func seenWithParent(id Identity) {
	if Portable() {
		return // it never adopts
	}
	record(id, NotChild)
}

func recorded(id Identity) (Origin, bool) {
	origins.Lock()
	defer origins.Unlock()
	o, ok := origins.m[id]
	return o, ok
}

// pruneOrigins drops the records of processes that are gone. [record]
// calls it once the records have doubled since the last prune: it costs
// a stat each.
func pruneOrigins() {
	origins.Lock()
	ids := make([]Identity, 0, len(origins.m))
	for id := range origins.m {
		ids = append(ids, id)
	}
	origins.Unlock()
	var gone []Identity
	for _, id := range ids {
		if !id.matches() {
			gone = append(gone, id)
		}
	}
	origins.Lock()
	defer origins.Unlock()
	for _, id := range gone {
		delete(origins.m, id)
	}
	origins.pruneAt = 2 * len(origins.m)
}
