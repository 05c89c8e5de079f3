package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

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
func killStaleHolders(dir, prefix string) []Identity {
	holders := staleHolders(dir, prefix)
	for _, id := range holders {
		id.Kill() // a holder gone in between is no error, and nothing else can be done
	}
	return holders
}

// staleHolders lists the processes that hold a FIFO inside a fixture
// folder of dir whose owner is a dead test process (see [staleOwner]).
func staleHolders(dir, prefix string) []Identity {
	m := staleMatcher{dirs: map[string]bool{filepath.Clean(dir): true}, prefix: prefix, stale: map[string]bool{}}
	// /proc shows resolved paths: TMPDIR may be a symbolic link.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		m.dirs[real] = true
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self, euid := os.Getpid(), os.Geteuid()
	var out []Identity
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		// /proc/PID belongs to the process's effective uid. Another
		// user's descriptors cannot be read anyway.
		var st unix.Stat_t
		if euid != 0 && (unix.Stat("/proc/"+e.Name(), &st) != nil || st.Uid != uint32(euid)) {
			continue
		}
		// Identified before the look: a pid reused after it is another
		// start time, and Kill leaves it alone.
		id, err := Identify(pid)
		if err != nil || !m.holds(pid) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// staleMatcher tells a descriptor on a dead owner's fixture FIFO.
type staleMatcher struct {
	dirs   map[string]bool // the folder that holds fixture folders, as given and resolved
	prefix string
	stale  map[string]bool // owner tag -> its test process is gone
}

// holds reports whether pid has a dead owner's fixture FIFO open.
func (m staleMatcher) holds(pid int) bool {
	fdDir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		link, err := os.Readlink(fdDir + fd.Name())
		if err != nil {
			continue
		}
		path, deleted := strings.CutSuffix(link, " (deleted)")
		if !m.inStaleFolder(path) {
			continue
		}
		var held unix.Stat_t
		if unix.Stat(fdDir+fd.Name(), &held) != nil || held.Mode&unix.S_IFMT != unix.S_IFIFO {
			continue
		}
		if deleted {
			if held.Nlink == 0 {
				return true
			}
			continue
		}
		var there unix.Stat_t
		if unix.Stat(path, &there) == nil && there.Dev == held.Dev && there.Ino == held.Ino {
			return true
		}
	}
	return false
}

// inStaleFolder reports whether path names a file directly inside
// DIR/PREFIX+TAG-... where TAG names a dead test process.
func (m staleMatcher) inStaleFolder(path string) bool {
	folder := filepath.Dir(path)
	if !m.dirs[filepath.Dir(folder)] {
		return false
	}
	rest, ok := strings.CutPrefix(filepath.Base(folder), m.prefix)
	if !ok {
		return false
	}
	tag, _, ok := strings.Cut(rest, "-")
	if !ok {
		return false
	}
	stale, seen := m.stale[tag]
	if !seen {
		stale = staleOwner(tag)
		m.stale[tag] = stale
	}
	return stale
}
