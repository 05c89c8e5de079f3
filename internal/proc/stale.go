package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// OwnerTag names the test process in the names of what the toolkit makes
// on the machine while a test runs (cgroups, the fixture's folder):
// "PIDNS.PID", its PID namespace's inode and its pid. A test binary that
// is killed (a timeout, a crash, SIGPIPE) runs no cleanup, and a later
// run removes what it left by this tag (see [RemoveStale]).
func OwnerTag() string { return ownerTag() }

var ownerTag = sync.OnceValue(func() string {
	return pidNamespaceInode() + "." + strconv.Itoa(os.Getpid())
})

// ownPIDNamespace names the test process's PID namespace, "" if unknown
// (off Linux, and in PID namespaces without /proc).
var ownPIDNamespace = sync.OnceValue(func() string {
	l, _ := os.Readlink("/proc/self/ns/pid")
	return l
})

// pidNamespaceInode is the inode of the test's PID namespace, "0" if
// unknown.
func pidNamespaceInode() string {
	l := ownPIDNamespace() // "pid:[4026531836]"
	if ino, ok := strings.CutPrefix(l, "pid:["); ok {
		return strings.TrimSuffix(ino, "]")
	}
	return "0"
}

// staleOwner reports whether tag names a test process of this PID
// namespace that no longer runs (zombies count as gone). A tag of another
// namespace is never
// stale: its process cannot be seen from here. A pid reused since counts
// as running: what it names stays, which is the safe side.
func staleOwner(tag string) bool {
	ns, pid, ok := strings.Cut(tag, ".")
	if !ok || ns != pidNamespaceInode() || ns == "0" {
		return false
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return current().gone(n)
}

// RemoveStale removes, from dir, what killed test runs left: every entry
// named prefix + an owner tag of a test process gone + "-" + anything. A
// cgroup's processes are killed first (cgroup.kill), and a cgroup whose
// processes take more than a second to leave is left for a later run.
// Outside a cgroup file system it first kills, by identity, the processes
// that hold a FIFO inside such a folder, or inside one removed already:
// the fixture processes of a run killed without a cgroup, which no
// cgroup names (they are of the test's own uid; as root, of any uid).
// It removes only what it can and reports nothing: a leftover it cannot
// remove is no test's failure.
func RemoveStale(dir, prefix string) {
	if !isCgroupFS(dir) {
		killStaleHolders(dir, prefix)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		tag, _, ok := strings.Cut(rest, "-")
		if !ok || !staleOwner(tag) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(path, "cgroup.procs")); err == nil {
			c := &Cgroup{Path: path}
			c.Kill()
			c.Remove() // waits up to a second for the killed to leave
			continue
		}
		RemoveAll(path)
	}
}

// killStaleHolders kills, by identity, the processes that a killed test
// run's fixtures left running, and returns them. Without a cgroup nothing
// else names them: their owner is gone, and they were reparented to init.
// What proves that a process is such a leftover is a descriptor on a FIFO
// inside one of the dead owner's fixture folders in dir (every fixture
// process holds the fixture's FIFO for as long as it runs): either the
// FIFO still there, the same file (device and inode), or one unlinked
// since (the link reads "DIR/PREFIX+TAG-TOKEN-XXXX/marker (deleted)",
// the folder having been removed by a run that did not look for holders).
//
// It reads all of /proc: a test binary does so once, at its first
// fixture. It looks only at processes of the test's own effective uid (as
// root, at all), never at the test process itself, and signals no group.
// The portable mode cannot read descriptors: it finds none.
func killStaleHolders(dir, prefix string) []Identity {
	holders := current().staleHolders(dir, prefix)
	for _, id := range holders {
		id.Kill() // a holder gone in between is no error, and nothing else can be done
	}
	return holders
}
