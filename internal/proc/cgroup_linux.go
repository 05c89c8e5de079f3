package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"golang.org/x/sys/unix"
)

// NewCgroup makes a cgroup v2 named exectest-OWNER-name (OWNER is
// [OwnerTag]; the first one also removes what killed runs left, see
// [RemoveStale]): directly under the root of the
// unified hierarchy (/sys/fs/cgroup, or /sys/fs/cgroup/unified on hybrid
// hosts) where it may, as root may; otherwise under the test process's own
// cgroup, where that one is delegated to the user running the test
// (systemd's Delegate=yes, a container's own cgroup). It fails without
// either right: callers fall back.
//
// The portable mode makes none (see [Portable]).
func NewCgroup(name string) (*Cgroup, error) {
	if Portable() {
		return nil, errNoCgroup
	}
	root, err := Cgroup2Mount()
	if err != nil {
		return nil, err
	}
	name = cgroupPrefix + OwnerTag() + "-" + name
	sweepOnce(root)
	c, rootErr := makeCgroup(filepath.Join(root, name))
	if rootErr == nil {
		return c, nil
	}
	own, err := ownCgroup(root)
	if err != nil {
		return nil, fmt.Errorf("%w; the test's own cgroup: %w", rootErr, err)
	}
	if own == root {
		return nil, fmt.Errorf("%w; the test's own cgroup is the root: none is delegated (%s)", rootErr, delegateHint)
	}
	sweepOnce(own)
	c, ownErr := makeCgroup(filepath.Join(own, name))
	if ownErr != nil {
		return nil, fmt.Errorf("%w; not delegated either: %w (%s)", rootErr, ownErr, delegateHint)
	}
	return c, nil
}

// delegateHint says how to get a cgroup per fixture without root.
const delegateHint = "for a cgroup per fixture without root, run the tests in a delegated cgroup: systemd-run --user --scope -p Delegate=yes go test ..."

// swept says which cgroup folders RemoveStale has swept in this process.
var swept sync.Map

// sweepOnce removes, once per process, the cgroups that killed test runs
// left in dir.
func sweepOnce(dir string) {
	if _, done := swept.LoadOrStore(dir, true); !done {
		RemoveStale(dir, cgroupPrefix)
	}
}

// makeCgroup makes the cgroup at path, and checks that a process can be
// moved in.
func makeCgroup(path string) (*Cgroup, error) {
	c := &Cgroup{Path: path}
	if err := os.Mkdir(c.Path, 0o755); err != nil {
		return nil, fmt.Errorf("cgroup v2: %w", err)
	}
	// Moving a process in needs write access to cgroup.procs.
	if err := unix.Access(filepath.Join(c.Path, "cgroup.procs"), unix.W_OK); err != nil {
		c.Remove()
		return nil, fmt.Errorf("cgroup v2: %s/cgroup.procs: %w", c.Path, err)
	}
	return c, nil
}

// ownCgroup is the folder of the test process's cgroup v2.
func ownCgroup(root string) (string, error) {
	rel, err := readCgroup("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	return filepath.Join(root, rel), nil
}

// cgroupOf is the cgroup v2 of the process with pid, relative to the
// hierarchy's root, as the test process sees it: the reader's cgroup
// namespace decides what /proc/PID/cgroup shows.
func cgroupOf(pid int) (string, error) {
	return readCgroup(procPath(pid, "cgroup"))
}

// readCgroup reads the cgroup v2 from a /proc/PID/cgroup file: its 0::
// line, which is not the first one on hybrid hosts.
func readCgroup(path string) (string, error) {
	b, err := ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cgroup v2: %w", err)
	}
	for line := range strings.Lines(string(b)) {
		if rel, ok := strings.CutPrefix(strings.TrimSpace(line), "0::"); ok {
			return filepath.Clean("/" + rel), nil
		}
	}
	return "", fmt.Errorf("cgroup v2: no 0:: line in %s", path)
}

// Add moves the process with pid into the cgroup; its children from then
// on are born members.
func (c *Cgroup) Add(pid int) error {
	return os.WriteFile(filepath.Join(c.Path, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
}

// PIDs lists the members, in the test's PID namespace. Zombies are no
// longer members.
func (c *Cgroup) PIDs() ([]int, error) {
	b, err := ReadFile(filepath.Join(c.Path, "cgroup.procs"))
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids, nil
}

// Kill sends SIGKILL to every member: through cgroup.kill where the kernel
// has it (5.14), else to each member through a pidfd, checked to still be
// a member after the pidfd is open. A cgroup already removed has no
// member: killing it does nothing, and is no error.
func (c *Cgroup) Kill() error {
	err := os.WriteFile(filepath.Join(c.Path, "cgroup.kill"), []byte("1"), 0)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return err
	}
	pids, err := c.PIDs()
	if errors.Is(err, os.ErrNotExist) {
		return nil // removed: cgroup.procs goes with it, cgroup.kill without a kernel's support does not
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, pid := range pids {
		errs = append(errs, c.killMember(pid))
	}
	return errors.Join(errs...)
}

func (c *Cgroup) killMember(pid int) error {
	pidfd, err := PidfdOpen(pid)
	if err != nil {
		return ignoreGone(err)
	}
	defer PidfdClose(pidfd)
	if !c.contains(pid) {
		return nil // exited, and its pid went to a stranger
	}
	return ignoreGone(unix.PidfdSendSignal(pidfd, unix.SIGKILL, nil, 0))
}

// contains reports whether pid is a member, from the process's side.
func (c *Cgroup) contains(pid int) bool {
	rel, err := cgroupOf(pid)
	return err == nil && c.is(rel)
}

// is reports whether rel, a cgroup relative to the hierarchy's root, is
// this one.
func (c *Cgroup) is(rel string) bool {
	return rel != "/" && strings.HasSuffix(c.Path, rel)
}

// removeEmpty removes the cgroup if it has no member: the kernel refuses
// one with members.
func (c *Cgroup) removeEmpty() bool { return unix.Rmdir(c.Path) == nil }

// Remove deletes the cgroup once its members are gone (killed members take
// a moment to leave).
func (c *Cgroup) Remove() error {
	var err error
	backoff.Poll(time.Second, time.Millisecond, time.Second, func() bool {
		if err = unix.Rmdir(c.Path); errors.Is(err, unix.ENOENT) {
			err = nil
		}
		return !errors.Is(err, unix.EBUSY)
	})
	if err == nil {
		return nil
	}
	return fmt.Errorf("cgroup v2: remove %s: %w", c.Path, err)
}
