package testenv

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/proc"
)

// OwnCgroupDir is the folder of the test process's own cgroup v2, under
// the mount of the unified hierarchy that [proc.Cgroup2Mount] finds.
func OwnCgroupDir() (string, error) {
	root, err := proc.Cgroup2Mount()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(b)) {
		if rel, ok := strings.CutPrefix(strings.TrimSpace(line), "0::"); ok {
			return filepath.Join(root, filepath.Clean("/"+rel)), nil
		}
	}
	return "", errors.New("no 0:: line in /proc/self/cgroup")
}

// containProbe is what cancelpolicy.Contain did with /bin/true here, once
// per test process: the pid it started despite an error, 0 where it
// started none (as it must), and its error, nil where it ran.
var containProbe = sync.OnceValues(func() (int, error) {
	cmd := exec.Command("/bin/true")
	s, err := cancelpolicy.Start(context.Background(), cmd, cancelpolicy.Contain())
	if err == nil {
		return 0, s.Wait()
	}
	if cmd.Process == nil {
		return 0, err
	}
	cmd.Process.Kill()
	cmd.Wait()
	return cmd.Process.Pid, err
})

// CanContain reports whether cancelpolicy.Contain can make a cgroup for a
// command here: as root, or in a cgroup delegated to the user. Where it
// cannot (an unprivileged user outside a delegated cgroup, as CI runs the
// suite once), it checks that Contain says so, naming the test process's
// cgroup and delegation, and starts nothing, and reports false: that
// error is then the behaviour under test, and all a test can check. Any
// other failure of Contain fails t.
func CanContain(t testing.TB) bool {
	t.Helper()
	started, err := containProbe()
	if err == nil {
		return true
	}
	own, ownErr := OwnCgroupDir()
	if ownErr != nil {
		t.Fatalf("cancelpolicy.Contain: got %v; the test process's own cgroup: %v", err, ownErr)
	}
	if os.Geteuid() == 0 || !strings.Contains(err.Error(), "delegated cgroup") || !strings.Contains(err.Error(), own) {
		t.Fatalf("cancelpolicy.Contain in %s: got %v, want it to work as root, or an error naming the cgroup and delegation", own, err)
	}
	if started != 0 {
		t.Fatalf("cancelpolicy.Contain without the right to make a cgroup: got pid %d started, want nothing started", started)
	}
	t.Logf("cancelpolicy.Contain cannot make a cgroup in %s for this user, and says so: %v", own, err)
	return false
}
