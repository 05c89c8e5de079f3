package proc

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Remains is what a test process made for one fixture, as another process
// (its watchdog, see package internal/watchdog) learned it while the test
// ran: the processes the fixture reported, its cgroup, its folder and its
// token. Once the test process is gone, [KillRemains],
// [Remains.RemoveFolder] and [Remains.RemoveCgroup] do what its cleanup
// would have done, by the same rules: a process only by identity, and
// only one found as the fixture's; a cgroup or a folder only if its name
// carries the owner's tag.
type Remains struct {
	Owner  int        // the test process's pid, in the caller's PID namespace
	Token  string     // in every fixture process's arguments, until it execs another program
	Dir    string     // the fixture's folder, whose FIFO every fixture process holds
	Cgroup string     // the fixture's cgroup v2, "" for none
	Known  []Identity // the processes the fixture reported, and those adopted
}

// KillRemains kills what is left of the fixtures rs and returns the
// processes it found alive. It first lists them all, in one look at the
// machine's processes for all the fixtures: the members of their cgroups,
// the known processes, those that hold a FIFO of their folders (the Linux
// mode) or whose arguments hold their token and that started no earlier
// than their first known one (the portable mode, which reads no
// descriptors), and the trees below them all. Only then it kills them,
// the cgroups through cgroup.kill and each process by identity: a killed
// parent's children go to init, out of sight.
//
// late then looks at the processes that started since the list was made,
// forked meanwhile, by the same rules, kills those too and returns them:
// call it once, after what needs no wait (removing the folders).
//
// The test process having died, its orphans went to init: what no known
// process, cgroup, FIFO or token leads to is not found (an escaped orphan
// that never reported and no longer carries the token, in the portable
// mode).
func KillRemains(rs []*Remains) (killed []Identity, late func() []Identity) {
	before := map[int]bool{}
	for _, pid := range current().pids() {
		before[pid] = true
	}
	live := liveRemains(rs)
	killRemains(rs, live)
	return live, func() []Identity {
		if len(live) == 0 {
			return nil // nothing alive, nothing could fork
		}
		l := lateRemains(rs, before, live)
		killRemains(rs, l)
		return l
	}
}

// liveRemains lists the live processes of the fixtures rs.
func liveRemains(rs []*Remains) []Identity {
	var seeds []Identity
	for _, r := range rs {
		seeds = append(seeds, r.Known...)
		if cg := r.cgroup(); cg != nil {
			seeds = append(seeds, cg.members()...)
		}
	}
	if !Portable() {
		var folders []string
		for _, r := range rs {
			if !r.contained() && r.owns(r.Dir) {
				folders = append(folders, r.Dir)
			}
		}
		return Trees(append(seeds, current().fifoHolders(folders)...))
	}
	// One pass over the processes for the trees and the tokens, and past
	// every process older than the first known one, which can be below
	// none and is not the fixture's by its token either: gopsutil reads
	// each one's files, and the watchdog has a second for it all.
	var tokens []string
	var known []Identity
	for _, r := range rs {
		tokens = append(tokens, r.Token)
		known = append(known, r.Known...)
	}
	if len(known) == 0 {
		return nil
	}
	first := slices.MinFunc(known, func(a, b Identity) int { return cmp.Compare(a.Start, b.Start) })
	tree, withArg := psScan(tokens, first.Start)
	for _, r := range rs {
		seeds = append(seeds, since(withArg[r.Token], r.Known)...)
	}
	return treesBy(seeds, tree.childrenOf)
}

// lateRemains lists the processes of the fixtures rs that started after
// before was listed: children of live, or found by the FIFO or the token,
// and the trees below them. (A pid reused meanwhile is missed: pids are
// handed out in turn, and come round again only after all the others.)
func lateRemains(rs []*Remains, before map[int]bool, live []Identity) []Identity {
	parents := map[int]Identity{}
	for _, id := range live {
		parents[id.PID] = id
	}
	folders := ownedFolders(rs)
	var late []Identity
	for _, pid := range current().pids() {
		if before[pid] {
			continue
		}
		ppid, start, err := current().peek(pid)
		if err != nil {
			continue
		}
		id := Identity{PID: pid, Start: start}
		parent, child := parents[ppid]
		if (child && id.Start >= parent.Start || current().holdsFIFOIn(pid, folders) || withToken(rs, id)) && id.matches() {
			late = append(late, id)
		}
	}
	if len(late) == 0 {
		return nil // and no look at the tree, which the portable mode reads whole
	}
	return Trees(late)
}

// withToken reports whether, in the portable mode, id's arguments hold a
// fixture's token and it started no earlier than that fixture's first
// known process.
func withToken(rs []*Remains, id Identity) bool {
	if !Portable() {
		return false
	}
	for _, r := range rs {
		if r.Token != "" && len(since([]Identity{id}, r.Known)) > 0 && current().argsHold(id.PID, r.Token) {
			return true
		}
	}
	return false
}

// contained reports whether every known process of the fixture that is
// alive is a member of its cgroup: then so is every process they forked,
// and no look at the holders of its FIFO (a read of every process's
// descriptors) can find more.
func (r *Remains) contained() bool {
	cg := r.cgroup()
	if cg == nil {
		return false
	}
	if _, err := os.Stat(cg.Path); err != nil {
		return false // removed: the fixture ran in a cgroup the code under test chose
	}
	for _, id := range r.Known {
		if id.Alive() && !cg.contains(id.PID) {
			return false
		}
	}
	return true
}

// killRemains kills the cgroups of rs and each of ids by identity.
func killRemains(rs []*Remains, ids []Identity) {
	for _, r := range rs {
		if cg := r.cgroup(); cg != nil {
			cg.Kill()
		}
	}
	for _, id := range ids {
		id.Kill() // a process gone in between is no error, and nothing else can be done
	}
}

// ownedFolders lists the folders of rs that are the owner's.
func ownedFolders(rs []*Remains) []string {
	var folders []string
	for _, r := range rs {
		if r.owns(r.Dir) {
			folders = append(folders, r.Dir)
		}
	}
	return folders
}

// RemoveFolder removes the folder, and returns its path if it did. The
// processes that hold its FIFO need not be dead: a FIFO unlinked since is
// still found (see [KillRemains]) through the path its link shows, the
// folder's with its symbolic links resolved (see [Remains.Resolve]).
func (r Remains) RemoveFolder() (string, error) {
	if !r.owns(r.Dir) {
		return "", nil
	}
	if _, err := os.Lstat(r.Dir); err != nil {
		return "", nil
	}
	if err := RemoveAll(r.Dir); err != nil {
		return "", err
	}
	return r.Dir, nil
}

// RemoveCgroup removes the cgroup once its killed members have left (up
// to a second), and returns its path if it did. Kill first.
func (r Remains) RemoveCgroup() (string, error) {
	cg := r.cgroup()
	if cg == nil {
		return "", nil
	}
	if _, err := os.Stat(cg.Path); err != nil {
		return "", nil
	}
	if err := cg.Remove(); err != nil {
		return "", err
	}
	return cg.Path, nil
}

// Resolve resolves the symbolic links of the folder's path, as /proc
// shows the path of a file a process holds, while the folder is there to
// resolve it.
func (r *Remains) Resolve() {
	if real, err := filepath.EvalSymlinks(r.Dir); err == nil && r.Dir != "" {
		r.Dir = real
	}
}

// cgroup is the fixture's cgroup if it is the owner's, else nil.
func (r Remains) cgroup() *Cgroup {
	if Portable() || !r.owns(r.Cgroup) {
		return nil
	}
	return &Cgroup{Path: r.Cgroup}
}

// owns reports whether path is an absolute path whose last element is
// named as the toolkit names what it makes for the owner:
// exectest-TAG-... (see [OwnerTag]).
func (r Remains) owns(path string) bool {
	if path == "" || !filepath.IsAbs(path) || r.Owner <= 1 {
		return false
	}
	return strings.HasPrefix(filepath.Base(filepath.Clean(path)), cgroupPrefix+r.tag()+"-")
}

// tag is the owner's [OwnerTag].
func (r Remains) tag() string { return pidNamespaceInode() + "." + strconv.Itoa(r.Owner) }
