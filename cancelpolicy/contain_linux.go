package cancelpolicy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroup is the cgroup v2 a contained command starts in; it is the
// package's own, made for this command alone, so killing all of it can
// reach nothing else.
type cgroup struct {
	dir string
	fd  int // open from prepare until Start returns: the clone3 target
}

// containRemoveLimit bounds how long Wait waits for a killed cgroup to
// empty before it gives up and leaves the cgroup in place: the kernel
// empties it within milliseconds unless a member is stuck in the kernel.
const containRemoveLimit = 5 * time.Second

// newCgroup makes the command's cgroup under the caller's own and sets cmd
// to start inside it.
func newCgroup(cmd *exec.Cmd) (*cgroup, error) {
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.UseCgroupFD {
		return nil, errors.New("cancelpolicy.Contain: cmd already starts in a cgroup of the caller's (SysProcAttr.UseCgroupFD): drop one of the two")
	}
	parent, err := ownCgroup()
	if err != nil {
		return nil, fmt.Errorf("cancelpolicy.Contain: %w", err)
	}
	dir, err := os.MkdirTemp(parent, "cancelpolicy-*")
	if err != nil {
		return nil, fmt.Errorf("cancelpolicy.Contain: cannot make a cgroup in the caller's cgroup %s: %w; run as root or in a delegated cgroup (systemd-run --user --scope -p Delegate=yes), or drop Contain", parent, err)
	}
	// Only non-root cgroups have cgroup.kill: look in the new one.
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		_ = os.Remove(dir)
		return nil, fmt.Errorf("cancelpolicy.Contain: no cgroup.kill in %s (it needs Linux 5.14 or later): %w", dir, err)
	}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(dir)
		return nil, fmt.Errorf("cancelpolicy.Contain: open %s: %w", dir, err)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	return &cgroup{dir: dir, fd: fd}, nil
}

// started closes the descriptor the clone needed.
func (c *cgroup) started() {
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
}

// kill kills every process in the cgroup, at once, in the kernel: none can
// fork out of it meanwhile.
func (c *cgroup) kill() error {
	err := os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0)
	if err != nil {
		return fmt.Errorf("cancelpolicy: kill cgroup %s: %w", c.dir, err)
	}
	return nil
}

// populated reports whether a live process is in the cgroup (zombies do
// not count).
func (c *cgroup) populated() bool {
	b, err := os.ReadFile(filepath.Join(c.dir, "cgroup.events"))
	if err != nil {
		return false // gone
	}
	return bytes.Contains(b, []byte("populated 1"))
}

// remove kills what is left, waits for the cgroup to empty and removes it
// with any cgroups a member made inside.
func (c *cgroup) remove() error {
	c.started()
	if c.populated() {
		if err := c.kill(); err != nil {
			return err
		}
		if !pollUntil(containRemoveLimit, func() bool { return !c.populated() }) {
			return fmt.Errorf("cancelpolicy: cgroup %s: still has live processes %v after cgroup.kill; left in place", c.dir, containRemoveLimit)
		}
	}
	return removeTree(c.dir)
}

// removeTree removes a cgroup and its children, deepest first: rmdir is
// the only way to remove a cgroup, and only an empty one.
func removeTree(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := removeTree(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	if err := unix.Rmdir(dir); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("cancelpolicy: remove cgroup %s: %w", dir, err)
	}
	return nil
}

// ownCgroup is the directory of the caller's cgroup v2.
func ownCgroup() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	var path string
	found := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			path, found = p, true
		}
	}
	if !found {
		return "", errors.New("the caller is in no cgroup v2 (no 0:: line in /proc/self/cgroup): cgroup v1 only")
	}
	mount, root, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	rel, ok := path, root == "/"
	if !ok && (path == root || strings.HasPrefix(path, root+"/")) {
		rel, ok = strings.TrimPrefix(path, root), true
	}
	if !ok {
		return "", fmt.Errorf("the caller's cgroup %s is outside the cgroup2 mount of %s at %s", path, root, mount)
	}
	return filepath.Join(mount, rel), nil
}

// cgroup2Mount finds where the unified hierarchy is mounted
// (/sys/fs/cgroup, or /sys/fs/cgroup/unified on hybrid hosts) and which of
// its cgroups is the mount's root.
func cgroup2Mount() (mount, root string, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint ... - fstype source options
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields := strings.Fields(pre)
		if !ok || len(fields) < 5 || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		if mount == "" || fields[4] == "/sys/fs/cgroup" || fields[4] == "/sys/fs/cgroup/unified" {
			mount, root = fields[4], fields[3]
		}
	}
	if mount == "" {
		return "", "", errors.New("no cgroup2 file system is mounted (none in /proc/self/mountinfo)")
	}
	return mount, root, nil
}
