package proctest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// A Tracker follows every process of one fixture, so that none escapes
// the survivor check and the cleanup: not a setsid daemon, not a double
// fork, not a process inside a sandbox that shares the PID namespace.
//
// [NewTracker] picks the strongest mechanism the host allows and
// [Tracker.Mechanism] says which one it got:
//
//   - a cgroup v2 per fixture (see [NewCgroup]: as root, or in a cgroup
//     delegated to the user): every process forked after [Tracker.Adopt]
//     is a member whatever it does, and cgroup.kill kills them all;
//   - without cgroup rights, the test process as child subreaper: orphans
//     come back to it, and the fixture's tree is walked from the processes
//     it reported and from the orphans that hold its file (see
//     [Tracker.FollowHolders]);
//   - without either, the processes the fixture reported and their trees.
//
// It never fails for lack of privilege: it falls back and says so.
type Tracker struct {
	cgroup    *Cgroup
	mechanism string

	mu    sync.Mutex
	roots []Identity       // adopted processes: the fixture's first ones
	seen  map[int]Identity // every member ever seen, for the reaping
	// found are members found only because they hold the fixture's file:
	// children of the test process, maybe os/exec's, so never reaped here.
	found map[int]bool

	held *unix.Stat_t // the file every fixture process holds, if any
}

var subreaper = sync.OnceValue(func() error { return EnableSubreaper() })

// NewTracker makes a tracker for the fixture called name.
func NewTracker(name string) *Tracker {
	return newTracker(name, NewCgroup)
}

func newTracker(name string, newCgroup func(string) (*Cgroup, error)) *Tracker {
	t := &Tracker{seen: map[int]Identity{}, found: map[int]bool{}}
	srErr := subreaper()
	cg, cgErr := newCgroup(name)
	switch {
	case cgErr == nil:
		t.cgroup = cg
		t.mechanism = "cgroup v2 " + cg.Path
	case srErr == nil:
		t.mechanism = fmt.Sprintf("child subreaper and the fixture's reports (no cgroup: %v)", cgErr)
	default:
		t.mechanism = fmt.Sprintf("the fixture's reports only (no cgroup: %v; no subreaper: %v)", cgErr, srErr)
	}
	active.Store(t, struct{}{})
	return t
}

// CgroupProcs is the path of the cgroup's cgroup.procs, where a process
// writes 0 to join it; "" without a cgroup.
func (t *Tracker) CgroupProcs() string {
	if t.cgroup == nil {
		return ""
	}
	return filepath.Join(t.cgroup.Path, "cgroup.procs")
}

// Mechanism says how the tracker follows processes, for messages.
func (t *Tracker) Mechanism() string { return t.mechanism }

// Adopt starts following a process and everything it forks from now on.
// Call it before the process forks: the fixture waits for it.
func (t *Tracker) Adopt(id Identity) error {
	t.mu.Lock()
	t.roots = append(t.roots, id)
	t.mu.Unlock()
	if t.cgroup == nil {
		return nil
	}
	if err := t.cgroup.Add(id.PID); err != nil {
		return fmt.Errorf("cgroup v2: adopt %v: %w", id, err)
	}
	return nil
}

// FollowHolders makes the tracker count, without a cgroup, every child of
// the test process that holds file open as a member, with its tree: an
// orphan of the fixture that never reported (its parent was killed after
// it forked, before it could report) comes back to the test process, the
// child subreaper, and is found by the file it inherited. Such members are
// killed with the others but never reaped here: a child of the test
// process may be os/exec's to wait for.
func (t *Tracker) FollowHolders(file string) error {
	var st unix.Stat_t
	if err := unix.Stat(file, &st); err != nil {
		return fmt.Errorf("proctest: follow holders of %s: %w", file, err)
	}
	t.mu.Lock()
	t.held = &st
	t.mu.Unlock()
	return nil
}

// holders lists the test process's children that hold the followed file.
func (t *Tracker) holders() []Identity {
	t.mu.Lock()
	held := t.held
	t.mu.Unlock()
	if held == nil || t.cgroup != nil {
		return nil
	}
	var out []Identity
	for _, pid := range Children(os.Getpid()) {
		if !holds(pid, held.Dev, held.Ino) {
			continue
		}
		// Identified after the look: a pid reused since is a new start
		// time, and holds nothing of ours.
		if id, err := Identify(pid); err == nil && holds(pid, held.Dev, held.Ino) {
			out = append(out, id)
		}
	}
	return out
}

// Members lists the live processes of the fixture: the cgroup's members,
// the processes in known (reported by the fixture itself), the test
// process's children that hold the followed file (see
// [Tracker.FollowHolders]) and the trees below them all. Its cost is the
// fixture's size and the test process's children, not the machine's.
func (t *Tracker) Members(known []Identity) []Identity {
	t.mu.Lock()
	seeds := append(append([]Identity(nil), t.roots...), known...)
	t.mu.Unlock()
	found := t.holders()
	if len(found) > 0 {
		t.mu.Lock()
		for _, id := range found {
			t.found[id.PID] = true
		}
		t.mu.Unlock()
		seeds = append(seeds, found...)
	}
	if t.cgroup != nil {
		if pids, err := t.cgroup.PIDs(); err == nil {
			for _, pid := range pids {
				if id, err := Identify(pid); err == nil {
					seeds = append(seeds, id)
				}
			}
		}
	}
	var out []Identity
	seen := map[int]bool{os.Getpid(): true}
	add := func(id Identity) {
		if !seen[id.PID] && id.Alive() {
			seen[id.PID] = true
			out = append(out, id)
		}
	}
	defer func() {
		t.mu.Lock()
		for _, id := range out {
			t.seen[id.PID] = id
		}
		t.mu.Unlock()
	}()
	for _, id := range seeds {
		if !id.Alive() {
			continue
		}
		add(id)
		for _, pid := range Descendants(id.PID) {
			if d, err := Identify(pid); err == nil && d.Start >= id.Start {
				add(d)
			}
		}
	}
	return out
}

// KillAll kills every member: the cgroup at once, then each process in
// known and in the trees below, by identity. It reports how many were
// alive: none, on a passing check, and then it signals nothing.
func (t *Tracker) KillAll(known []Identity) (int, error) {
	live := t.Members(known)
	if len(live) == 0 {
		return 0, nil
	}
	var errs []error
	if t.cgroup != nil {
		errs = append(errs, t.cgroup.Kill())
	}
	for _, id := range live {
		errs = append(errs, id.Kill())
	}
	return len(live), errors.Join(errs...)
}

// ReapOrphans collects the fixture's processes (those in known and every
// member seen) that died as orphans of the test process, which is a child
// subreaper. It leaves alone those for which spare is true: children that
// os/exec started, whose Wait would fail if reaped here.
func (t *Tracker) ReapOrphans(known []Identity, spare func(Identity) bool) {
	t.mu.Lock()
	ids := append([]Identity(nil), known...)
	for _, id := range t.seen {
		ids = append(ids, id)
	}
	t.mu.Unlock()
	known = append([]Identity(nil), known...)
	isKnown := func(id Identity) bool {
		for _, k := range known {
			if k == id {
				return true
			}
		}
		return false
	}
	for _, id := range ids {
		t.mu.Lock()
		found := t.found[id.PID]
		t.mu.Unlock()
		if spare(id) || (found && !isKnown(id)) {
			continue
		}
		Reap(id)
	}
}

// Close removes the cgroup. Kill first: a cgroup with members stays.
func (t *Tracker) Close() error {
	active.Delete(t)
	if t.cgroup == nil {
		return nil
	}
	return t.cgroup.Remove()
}
