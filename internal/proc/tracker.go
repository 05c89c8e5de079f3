package proc

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
// It never fails for lack of privilege: it falls back and says so. Nor
// does it take a process out of a cgroup that the code under test chose
// (see [Tracker.Adopt]): it follows that one as without a cgroup.
type Tracker struct {
	noCgroup    error // why there is no cgroup, if none was made
	noSubreaper error

	mu sync.Mutex
	// cgroup is nil without one, and once removed unused because the
	// fixture runs elsewhere.
	cgroup *Cgroup
	// elsewhere says, of each adopted process that runs in a cgroup the
	// code under test chose, which one.
	elsewhere []string
	roots     []Identity       // adopted processes: the fixture's first ones
	seen      map[int]Identity // every member ever seen, for the reaping
	// found are members found only because they hold the fixture's file:
	// children of the test process, maybe os/exec's, so never reaped here.
	found map[int]bool

	held *fileID // the file every fixture process holds, if any
	arg  string  // what every fixture process's arguments hold, for the portable mode
}

// Subreaper makes the test process a child subreaper, once, and says why
// it could not.
var Subreaper = sync.OnceValue(func() error { return EnableSubreaper() })

// NewTracker makes a tracker for the fixture called name.
func NewTracker(name string) *Tracker {
	return newTracker(name, NewCgroup)
}

func newTracker(name string, newCgroup func(string) (*Cgroup, error)) *Tracker {
	t := &Tracker{seen: map[int]Identity{}, found: map[int]bool{}}
	t.noSubreaper = Subreaper()
	t.cgroup, t.noCgroup = newCgroup(name)
	active.Store(t, struct{}{})
	return t
}

// cg is the cgroup, nil without one.
func (t *Tracker) cg() *Cgroup {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cgroup
}

// CgroupProcs is the path of the cgroup's cgroup.procs, where a process
// writes 0 to join it; "" without a cgroup. A process may join by itself
// only from where [Tracker.JoinFrom] says.
func (t *Tracker) CgroupProcs() string {
	cg := t.cg()
	if cg == nil {
		return ""
	}
	return filepath.Join(cg.Path, "cgroup.procs")
}

// JoinFrom says where a process must run to join the cgroup by itself
// (see [Tracker.CgroupProcs]): in the test process's own cgroup, as the
// 0:: line of its /proc/self/cgroup names it, seen from the test's cgroup
// namespace, whose file namespace is (the same name in another namespace
// is another cgroup). [Tracker.Adopt] moves a process from there and only
// from there; from anywhere else a process must wait for Adopt, which
// leaves it where it is. Both are "" without a cgroup.
func (t *Tracker) JoinFrom() (cgroup, namespace string) {
	if t.cg() == nil {
		return "", ""
	}
	own, err := readCgroup("/proc/self/cgroup")
	if err != nil {
		return "", ""
	}
	return own, procPath(os.Getpid(), "ns/cgroup")
}

// PortableTracking starts what [Tracker.Mechanism] says in the portable
// mode.
const PortableTracking = "portable mode: the fixture's reports and the processes below them, by gopsutil's parent links"

// Mechanism says how the tracker follows processes, for messages. It
// changes when [Tracker.Adopt] leaves a process where the code under test
// put it.
func (t *Tracker) Mechanism() string {
	if Portable() {
		return PortableTracking + " (cannot see " + strings.Join(CannotSee(), "; ") + ")"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fallback := "child subreaper and the fixture's reports"
	var why []string
	if t.noCgroup != nil {
		why = append(why, "no cgroup: "+t.noCgroup.Error())
	}
	for _, e := range t.elsewhere {
		why = append(why, e+": exectest does not move it out")
	}
	if t.noSubreaper != nil {
		fallback = "the fixture's reports only"
		why = append(why, "no subreaper: "+t.noSubreaper.Error())
	}
	switch {
	case t.cgroup != nil && len(t.elsewhere) == 0:
		return "cgroup v2 " + t.cgroup.Path
	case t.cgroup != nil:
		return "cgroup v2 " + t.cgroup.Path + ", and for the processes outside it " + fallback + " (" + strings.Join(why, "; ") + ")"
	}
	return fallback + " (" + strings.Join(why, "; ") + ")"
}

// Partial reports whether the tracker sees less than a cgroup of its own or
// the child subreaper would show: the portable mode, a process left in a
// cgroup the code under test chose, or no subreaper. A failure says how
// its processes were tracked only then, where it bears on the verdict;
// elsewhere [Tracker.Mechanism] is for a Result.
func (t *Tracker) Partial() bool {
	if Portable() {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.elsewhere) > 0 || t.noSubreaper != nil
}

// Adopt starts following a process and everything it forks from now on.
// Call it before the process forks: the fixture waits for it.
//
// With a cgroup, a process in the test process's own cgroup is moved into
// it (one that joined it by itself stays). A process in any other cgroup
// stays where it is: the code under test put it there (systemd,
// containerd and job runners start a command in a cgroup of its own and
// kill that cgroup on cancel), and taking it out would change what that
// code sees and does. It is followed as without a cgroup, by its tree,
// the child subreaper and the fixture's file, and [Tracker.Mechanism]
// says so; the cgroup, if that leaves it unused, is removed at once.
func (t *Tracker) Adopt(id Identity) error {
	t.mu.Lock()
	t.roots = append(t.roots, id)
	cg := t.cgroup
	t.mu.Unlock()
	if cg == nil {
		return nil
	}
	// Unreadable, the process has exited, or there is no cgroup v2 to
	// judge by: Add fails the same way, or moves it as it always did.
	where, err := cgroupOf(id.PID)
	own, ownErr := readCgroup("/proc/self/cgroup")
	switch {
	case err == nil && cg.is(where):
		return nil // joined by itself
	case err == nil && ownErr == nil && where != own:
		t.leave(id, where)
		return nil
	}
	if err := cg.Add(id.PID); err != nil {
		return fmt.Errorf("cgroup v2: adopt %v: %w", id, err)
	}
	return nil
}

// leave follows id where it is, in the cgroup where (relative to the
// hierarchy's root), without the tracker's cgroup; the cgroup goes if no
// process joined it.
func (t *Tracker) leave(id Identity, where string) {
	if root, err := Cgroup2Mount(); err == nil {
		where = filepath.Join(root, where)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.elsewhere = append(t.elsewhere, fmt.Sprintf("pid %d runs in a cgroup the code under test chose, %s", id.PID, where))
	// The kernel refuses a cgroup with members: then it stays, for them.
	if t.cgroup != nil && t.cgroup.removeEmpty() {
		t.cgroup = nil
	}
}

// FollowHolders makes the tracker count, without a cgroup, every child of
// the test process that holds file open as a member, with its tree: an
// orphan of the fixture that never reported (its parent was killed after
// it forked, before it could report) comes back to the test process, the
// child subreaper, and is found by the file it inherited. Such members are
// killed with the others but never reaped here: a child of the test
// process may be os/exec's to wait for.
func (t *Tracker) FollowHolders(file string) error {
	st, err := statFile(file)
	if err != nil {
		return fmt.Errorf("proctest: follow holders of %s: %w", file, err)
	}
	t.mu.Lock()
	t.held = &st
	t.mu.Unlock()
	return nil
}

// FollowArg makes the tracker count, in the portable mode, every process
// whose arguments hold s (the fixture's token) as a member, with its
// tree: the portable mode sees no held file, and an orphan of the fixture
// that never reported still carries the token until it execs another
// program. The Linux mode follows the held file instead (see
// [Tracker.FollowHolders]).
func (t *Tracker) FollowArg(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.arg = s
}

// holders lists the test process's children that hold the followed file;
// in the portable mode, the processes whose arguments hold the followed
// argument.
func (t *Tracker) holders() []Identity {
	if Portable() {
		return t.withArg()
	}
	t.mu.Lock()
	held := t.held
	// Every process is a member of the cgroup, unless one was left
	// where the code under test put it.
	tracked := t.cgroup != nil && len(t.elsewhere) == 0
	t.mu.Unlock()
	if held == nil || tracked {
		return nil
	}
	var out []Identity
	for _, pid := range Children(os.Getpid()) {
		if !current().holds(pid, *held) {
			continue
		}
		// Identified after the look: a pid reused since is a new start
		// time, and holds nothing of ours.
		if id, err := Identify(pid); err == nil && current().holds(pid, *held) {
			out = append(out, id)
		}
	}
	return out
}

// withArg lists the processes whose arguments hold the followed argument
// and that started no earlier than the first fixture child: a wrapper the
// code under test ran the fixture's command line through (env, timeout,
// sudo) holds the token too, but started before it, and is not the
// fixture's. None before a fixture child was adopted.
func (t *Tracker) withArg() []Identity {
	t.mu.Lock()
	arg, roots := t.arg, slices.Clone(t.roots)
	t.mu.Unlock()
	return withArgSince(arg, roots)
}

// withArgSince lists the processes whose arguments hold arg and that
// started no earlier than the first of roots; none without roots.
func withArgSince(arg string, roots []Identity) []Identity {
	if len(roots) == 0 {
		return nil
	}
	return since(psWithArg(arg), roots)
}

// since keeps of ids those that started no earlier than the first of
// roots.
func since(ids, roots []Identity) []Identity {
	if len(roots) == 0 {
		return nil
	}
	first := slices.MinFunc(roots, func(a, b Identity) int { return cmp.Compare(a.Start, b.Start) })
	var out []Identity
	for _, id := range ids {
		if id.Start >= first.Start {
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
	cg := t.cgroup
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
	if cg != nil {
		seeds = append(seeds, cg.members()...)
	}
	out := Trees(seeds)
	t.mu.Lock()
	for _, id := range out {
		t.seen[id.PID] = id
	}
	t.mu.Unlock()
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
	if cg := t.cg(); cg != nil {
		errs = append(errs, cg.Kill())
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

// Close removes the cgroup and forgets the followed file and argument.
// Kill first: a cgroup with members stays. The fixture's FIFO goes with
// its folder, and a later fixture's may get its inode: a look at the
// members after Close must not take that one's processes for this one's.
func (t *Tracker) Close() error {
	active.Delete(t)
	t.mu.Lock()
	t.held, t.arg = nil, ""
	t.mu.Unlock()
	cg := t.cg()
	if cg == nil {
		return nil
	}
	return cg.Remove()
}
