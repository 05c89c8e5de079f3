package proc

import "path/filepath"

// CgroupChosen is the directory of the cgroup pid runs in when the code
// under test put it there: neither the test process's own cgroup nor the
// tracker's, the only two the fixture can be in by itself. It
// is "" when pid runs in one of those, is gone, or there is no cgroup v2
// (the portable mode has none).
// A failure's fix reads it: a command in a cgroup of its own needs that
// cgroup killed, not a cgroup made for it.
func (t *Tracker) CgroupChosen(pid int) string {
	if Portable() {
		return "" // it reads no /proc, also where one is mounted
	}
	where, err := cgroupOf(pid)
	if err != nil {
		return ""
	}
	own, err := readCgroup("/proc/self/cgroup")
	if err != nil || where == own {
		return ""
	}
	t.mu.Lock()
	cg := t.cgroup
	t.mu.Unlock()
	if cg != nil && cg.is(where) {
		return ""
	}
	if root, err := Cgroup2Mount(); err == nil {
		return filepath.Join(root, where)
	}
	return where
}
