package cancelpolicy_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/testenv"
	"golang.org/x/sys/unix"
)

// The shapes only a cgroup stops: their sleep leaves the command's process
// group, so no group signal reaches it.
var escapedShapes = []struct{ name, script string }{
	// job control: the background job gets a group of its own (bash: dash
	// turns job control off without a tty).
	{"job control", `exec bash -c 'set -m; /bin/sleep 20 & echo $! >"$1"; wait' bash "$1"`},
	// escaped: a session of its own (setsid execs at once: the job does
	// not lead a group).
	{"setsid", `setsid /bin/sleep 20 & echo $! >"$1"; wait`},
	// double fork: a subshell starts a daemon in a session of its own and
	// exits; the shell waits for the subshell only, so the direct child
	// exits too and only Run's context watch is left to stop it.
	{"double fork", `(setsid /bin/sleep 20 & echo $! >"$1") & wait`},
}

// With Contain, a cancel kills the escaped shapes, Run returns within the
// bound, and the cgroup is gone. Without it, the same shapes outlive the
// Wait: the check of each shape can fail.
func TestContainStopsEscapedShapes(t *testing.T) {
	t.Parallel()
	if !testenv.CanContain(t) {
		return
	}
	if _, err := exec.LookPath("bash"); err != nil {
		envswitch.Unmet(t, "no bash for the job-control shape: %v", err)
	}
	for _, shape := range escapedShapes {
		t.Run(shape.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd, pidFile := shell(ctx, t, shape.script)
			s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.Contain(), cancelpolicy.WaitDelay(waitDelay))
			if err != nil {
				t.Fatal(err)
			}
			d := awaitDescendant(t, pidFile)
			cg := cgroupOf(t, d.pid)
			cancel()
			begin := time.Now()
			err = s.Wait()
			if elapsed := time.Since(begin); elapsed > bound {
				t.Errorf("%s, contained: Wait returned %v after the cancel, want within %v (WaitDelay %v)", shape.name, elapsed, bound, waitDelay)
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) && !errors.Is(err, context.Canceled) {
				t.Errorf("%s, contained: Wait: got %v, want the child's death by SIGKILL or context.Canceled", shape.name, err)
			}
			if !d.dead() {
				t.Errorf("%s, contained: descendant %d (/bin/sleep 20): got alive when Wait returned, want dead", shape.name, d.pid)
			}
			if _, err := os.Stat(cg); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s, contained: cgroup %s: got %v when Wait returned, want it removed", shape.name, cg, err)
			}
		})
		t.Run(shape.name+" without Contain", func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cmd, pidFile := shell(ctx, t, shape.script)
			s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.WaitDelay(200*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			d := awaitDescendant(t, pidFile)
			cancel()
			_ = s.Wait()
			if d.dead() {
				t.Errorf("%s, not contained: descendant %d: got dead when Wait returned, want alive (no group signal reaches it)", shape.name, d.pid)
			}
		})
	}
}

// A contained command that exits on its own leaves nothing behind either:
// Wait kills what is left in its cgroup, and the command's own result is
// what Wait returns.
func TestContainKillsLeftoversAtWait(t *testing.T) {
	t.Parallel()
	if !testenv.CanContain(t) {
		return
	}
	cmd, pidFile := shell(context.Background(), t, `setsid /bin/sleep 20 >/dev/null 2>&1 & echo $! >"$1"; /bin/sleep 0.2`)
	s, err := cancelpolicy.Start(context.Background(), cmd, cancelpolicy.Contain())
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	cg := cgroupOf(t, d.pid)
	if err := s.Wait(); err != nil {
		t.Errorf("Wait: got %v, want nil (the command exited 0)", err)
	}
	if !d.dead() {
		t.Errorf("leftover %d (/bin/sleep 20): got alive when Wait returned, want killed with the cgroup", d.pid)
	}
	if _, err := os.Stat(cg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cgroup %s: got %v when Wait returned, want it removed", cg, err)
	}
}

// With Graceful, a contained command's group gets the signal first; what
// ignores it, in the group or out of it, dies by the SIGKILL to the cgroup
// after the grace.
func TestContainGraceful(t *testing.T) {
	t.Parallel()
	if !testenv.CanContain(t) {
		return
	}
	const grace = 300 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(ctx, t, `trap '' TERM; set -m; /bin/sleep 20 & echo $! >"$1"; wait`)
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.Contain(), cancelpolicy.Graceful(syscall.SIGTERM, grace), cancelpolicy.WaitDelay(waitDelay))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	stopAndCheck(t, "contained, graceful, TERM ignored", cancel, s.Wait, d, grace)
}

// Apply cannot contain; Start refuses a command that already names a
// cgroup. Neither changes the command.
func TestContainBadInput(t *testing.T) {
	cmd := exec.CommandContext(context.Background(), "/bin/true")
	err := cancelpolicy.Apply(cmd, cancelpolicy.Contain())
	if err == nil || !strings.Contains(err.Error(), "use Start or Run") {
		t.Errorf("Apply with Contain: got %v, want an error naming Start or Run", err)
	}
	if cmd.SysProcAttr != nil || cmd.WaitDelay != 0 {
		t.Errorf("Apply with Contain: got SysProcAttr %+v, WaitDelay %v, want the command unchanged", cmd.SysProcAttr, cmd.WaitDelay)
	}
	cmd = exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: 99}
	_, err = cancelpolicy.Start(context.Background(), cmd, cancelpolicy.Contain())
	if err == nil || !strings.Contains(err.Error(), "UseCgroupFD") {
		t.Errorf("Start with Contain and UseCgroupFD: got %v, want an error naming UseCgroupFD", err)
	}
	if cmd.Process != nil || cmd.SysProcAttr.Setpgid {
		t.Errorf("Start with Contain and UseCgroupFD: got process %v, Setpgid %v, want nothing started or changed", cmd.Process, cmd.SysProcAttr.Setpgid)
	}
}

func unifiedMount(t *testing.T) string {
	for _, m := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		var st unix.Statfs_t
		if unix.Statfs(m, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC {
			return m
		}
	}
	t.Fatal("no cgroup2 file system at /sys/fs/cgroup or /sys/fs/cgroup/unified")
	return ""
}

// cgroupOf is the directory of pid's cgroup, which must be one Contain
// made.
func cgroupOf(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cgroup"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			if !strings.HasPrefix(filepath.Base(p), "cancelpolicy-") {
				t.Fatalf("descendant %d: got cgroup %s, want one of cancelpolicy's own", pid, p)
			}
			return filepath.Join(unifiedMount(t), p)
		}
	}
	t.Fatalf("descendant %d: no cgroup v2 line in:\n%s", pid, b)
	return ""
}

// Many contained commands leave no cgroup and no descriptor behind. Each
// command says which cgroup it ran in: other test binaries (this
// module's own, under go test ./...) make cancelpolicy's cgroups in the
// same parent meanwhile, so a count of the parent's would blame them on
// this test.
func TestContainLeavesNothing(t *testing.T) {
	if !testenv.CanContain(t) {
		return
	}
	run := func() string {
		var out bytes.Buffer
		cmd := exec.Command("/bin/cat", "/proc/self/cgroup")
		cmd.Stdout = &out
		if err := cancelpolicy.Run(context.Background(), cmd, cancelpolicy.Contain()); err != nil {
			t.Fatalf("Run cat /proc/self/cgroup, contained: %v", err)
		}
		for line := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
			if p, ok := strings.CutPrefix(line, "0::"); ok && strings.HasPrefix(filepath.Base(p), "cancelpolicy-") {
				return filepath.Join(unifiedMount(t), p)
			}
		}
		t.Fatalf("cat /proc/self/cgroup, contained: got %q, want a cgroup v2 line naming one of cancelpolicy's", out.String())
		return ""
	}
	run()
	fds0 := openFDs(t)
	var left []string
	for range 200 {
		if dir := run(); dirExists(dir) {
			left = append(left, dir)
		}
	}
	if fds1 := openFDs(t); len(left) > 0 || fds1 > fds0 {
		t.Errorf("after 200 contained commands: got %d of their cgroups left and %d descriptors open, want none left and %d descriptors%s", len(left), fds1, fds0, strings.Join(append([]string{""}, left...), "\n\t"))
	}
}

func dirExists(dir string) bool {
	_, err := os.Stat(dir)
	return err == nil
}
