package proc

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
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
	if errors.Is(unix.Kill(n, 0), unix.ESRCH) {
		return true
	}
	st, err := ReadStat(n) // a zombie has exited too
	return err == nil && st.Zombie()
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
		os.RemoveAll(path)
	}
}

// isCgroupFS reports whether dir is on a cgroup file system, where no FIFO
// can be.
func isCgroupFS(dir string) bool {
	var fs unix.Statfs_t
	return unix.Statfs(dir, &fs) == nil && (fs.Type == unix.CGROUP2_SUPER_MAGIC || fs.Type == unix.CGROUP_SUPER_MAGIC)
}
