package proc

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// linuxStaleHolders lists the processes that hold a FIFO inside a fixture
// folder of dir whose owner is a dead test process (see [staleOwner]).
func linuxStaleHolders(dir, prefix string) []Identity {
	m := staleMatcher{dirs: resolved(dir), prefix: prefix, stale: map[string]bool{}}
	return scanFIFOHolders(m.inStaleFolder)
}

// linuxFIFOHolders lists the processes that hold a FIFO directly inside
// one of folders: there, or unlinked since.
func linuxFIFOHolders(folders []string) []Identity {
	if len(folders) == 0 {
		return nil
	}
	return scanFIFOHolders(inFolders(folders))
}

// linuxHoldsFIFOIn reports whether pid holds a FIFO directly inside one of
// folders.
func linuxHoldsFIFOIn(pid int, folders []string) bool {
	return len(folders) > 0 && holdsFIFO(pid, inFolders(folders))
}

// inFolders reports whether a path is directly inside one of folders, as
// given or resolved.
func inFolders(folders []string) func(path string) bool {
	dirs := map[string]bool{}
	for _, f := range folders {
		maps.Copy(dirs, resolved(f))
	}
	return func(path string) bool { return dirs[filepath.Dir(path)] }
}

// linuxPIDs lists every process in /proc.
func linuxPIDs() []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// resolved is dir as given, cleaned, and with its symbolic links resolved:
// /proc shows resolved paths, and TMPDIR may be a symbolic link.
func resolved(dir string) map[string]bool {
	dirs := map[string]bool{filepath.Clean(dir): true}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dirs[real] = true
	}
	return dirs
}

// scanFIFOHolders lists the processes that have a FIFO open whose path
// inFolder accepts (see holdsFIFO). It reads all of /proc, looks only at
// processes of the caller's own effective uid (as root, at all), never at
// the caller itself.
func scanFIFOHolders(inFolder func(path string) bool) []Identity {
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
		if err != nil || !holdsFIFO(pid, inFolder) {
			continue
		}
		out = append(out, id)
	}
	return out
}

// staleMatcher tells a path inside a dead owner's fixture folder.
type staleMatcher struct {
	dirs   map[string]bool // the folder that holds fixture folders, as given and resolved
	prefix string
	stale  map[string]bool // owner tag -> its test process is gone
}

// holdsFIFO reports whether pid has a FIFO open whose path inFolder
// accepts: the same file (device and inode) as the one at that path, or
// one unlinked since (the link reads "PATH (deleted)").
func holdsFIFO(pid int, inFolder func(path string) bool) bool {
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
		if !inFolder(path) {
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

// linuxGone reports whether no process has pid (a zombie has exited too).
func linuxGone(n int) bool {
	if errors.Is(unix.Kill(n, 0), unix.ESRCH) {
		return true
	}
	st, err := ReadStat(n) // a zombie has exited too
	return err == nil && st.Zombie()
}

// isCgroupFS reports whether dir is on a cgroup file system, where no FIFO
// can be.
func isCgroupFS(dir string) bool {
	var fs unix.Statfs_t
	return unix.Statfs(dir, &fs) == nil && (fs.Type == unix.CGROUP2_SUPER_MAGIC || fs.Type == unix.CGROUP_SUPER_MAGIC)
}
