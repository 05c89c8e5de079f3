package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Remains is what a test process made for one fixture, as another process
// (its watchdog, see package internal/watchdog) learned it while the test
// ran: the processes the fixture reported, its cgroup, its folder and its
// token. Once the test process is gone, [Remains.Kill] and
// [Remains.Remove] do what its cleanup would have done, by the same rules:
// a process only by identity, and only one found as the fixture's; a
// cgroup or a folder only if its name carries the owner's tag.
type Remains struct {
	Owner  int        // the test process's pid, in the caller's PID namespace
	Token  string     // in every fixture process's arguments, until it execs another program
	Dir    string     // the fixture's folder, whose FIFO every fixture process holds
	Cgroup string     // the fixture's cgroup v2, "" for none
	Known  []Identity // the processes the fixture reported, and those adopted
}

// Live lists the fixture's live processes: the cgroup's members, the
// known processes, those that hold a FIFO of the folder (the Linux mode)
// or whose arguments hold the token and that started no earlier than the
// first known one (the portable mode, which reads no descriptors), and
// the trees below them all. The test process having died, its orphans
// went to init: what no known process, cgroup, FIFO or token leads to is
// not found (an escaped orphan that never reported and no longer carries
// the token, in the portable mode).
func (r Remains) Live() []Identity {
	seeds := slices.Clone(r.Known)
	if cg := r.cgroup(); cg != nil {
		seeds = append(seeds, cg.members()...)
	}
	if !Portable() {
		if r.owns(r.Dir) {
			seeds = append(seeds, current().fifoHolders(r.Dir)...)
		}
		return Trees(seeds)
	}
	// One pass over the processes for both: gopsutil reads each one's
	// files, and the watchdog has a second to do it all.
	tree, withArg := psScan(r.Token)
	return treesBy(append(seeds, since(withArg, r.Known)...), tree.childrenOf)
}

// Kill kills the cgroup (cgroup.kill) and every process [Remains.Live]
// lists, by identity, and returns those it found alive. The trees are
// listed before anything is killed: a killed parent's children go to
// init, out of sight.
func (r Remains) Kill() []Identity {
	live := r.Live()
	if cg := r.cgroup(); cg != nil {
		cg.Kill()
	}
	for _, id := range live {
		id.Kill() // a process gone in between is no error, and nothing else can be done
	}
	return live
}

// RemoveFolder removes the folder, and returns its path if it did. The
// processes that hold its FIFO need not be dead: a FIFO unlinked since is
// still found (see [Remains.Live]) through the path its link shows, the
// folder's with its symbolic links resolved (see [Remains.Resolve]).
func (r Remains) RemoveFolder() (string, error) {
	if !r.owns(r.Dir) {
		return "", nil
	}
	if _, err := os.Lstat(r.Dir); err != nil {
		return "", nil
	}
	if err := os.RemoveAll(r.Dir); err != nil {
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
