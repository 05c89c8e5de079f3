package proc

import (
	"errors"
	"fmt"
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
	if r.owns(r.Dir) {
		seeds = append(seeds, current().fifoHolders(r.Dir)...)
	}
	if Portable() && r.Token != "" {
		seeds = append(seeds, withArgSince(r.Token, r.Known)...)
	}
	return Trees(seeds)
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

// Remove removes the cgroup, once its killed members have left (up to a
// second), and the folder, and returns the paths it removed. Kill first.
func (r Remains) Remove() (removed []string, err error) {
	var errs []error
	if cg := r.cgroup(); cg != nil {
		if _, serr := os.Stat(cg.Path); serr == nil {
			if err := cg.Remove(); err != nil {
				errs = append(errs, err)
			} else {
				removed = append(removed, cg.Path)
			}
		}
	}
	if r.owns(r.Dir) {
		if _, serr := os.Lstat(r.Dir); serr == nil {
			if err := os.RemoveAll(r.Dir); err != nil {
				errs = append(errs, err)
			} else {
				removed = append(removed, r.Dir)
			}
		}
	}
	return removed, errors.Join(errs...)
}

// Refused says why the cgroup or the folder is not the owner's, which
// Kill and Remove then leave alone; nil if both are (or are "").
func (r Remains) Refused() error {
	var errs []error
	for _, p := range []string{r.Cgroup, r.Dir} {
		if p != "" && !r.owns(p) {
			errs = append(errs, fmt.Errorf("%s: got a name without the owner's tag, want an absolute path to %s%s-...", p, cgroupPrefix, r.tag()))
		}
	}
	return errors.Join(errs...)
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
