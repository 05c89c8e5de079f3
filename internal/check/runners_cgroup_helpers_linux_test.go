package check_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
	"golang.org/x/sys/unix"
)

// A cgroupRunner runs the command in a cgroup of its own, made for the
// run, as systemd, containerd and job runners do: SysProcAttr.UseCgroupFD
// starts the command in it, so that everything the command forks is a
// member whatever it does, and the cgroup is removed after Wait.
type cgroupRunner struct {
	parent string // where its cgroups go (see runnerCgroupParent)
	// killCgroup makes Cancel write 1 to the cgroup's cgroup.kill, which
	// kills every member, escaped or not; without it, Cancel kills the
	// direct child only and WaitDelay ends the wait.
	killCgroup bool
	// namespace also gives the command a cgroup namespace rooted at its
	// cgroup, as containers do: there the command's /proc/self/cgroup
	// says "/", whatever the cgroup.
	namespace bool
	// hang, without killCgroup, leaves WaitDelay unset too: a descendant
	// holding the pipe keeps Wait waiting until exectest kills it.
	hang bool
	// build makes the command; nil: exec.CommandContext.
	build *build

	mu   sync.Mutex
	runs []*cgroupRun
}

// cgroupRun is what the runner saw of one run, for the test to check that
// the command stayed where the runner put it.
type cgroupRun struct {
	dir       string // the cgroup
	child     int    // the direct child's pid
	cancelled bool
	members   []int // cgroup.procs at the cancel, before the kill
	removeErr error // removing the cgroup after Wait
}

func (r *cgroupRunner) run(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		dir, err := os.MkdirTemp(r.parent, "exectest-"+proc.OwnerTag()+"-runner-")
		if err != nil {
			return fmt.Errorf("cgroup runner: %w", err)
		}
		run := &cgroupRun{dir: dir}
		r.mu.Lock()
		r.runs = append(r.runs, run)
		r.mu.Unlock()
		fd, err := unix.Open(dir, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			os.Remove(dir)
			return fmt.Errorf("cgroup runner: %w", err)
		}
		defer unix.Close(fd)
		cmd := systemtest.Command(ctx, argv)
		if r.build != nil {
			cmd = r.build.command(ctx, argv)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
		if r.namespace {
			cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWCGROUP
		}
		stop := func() error {
			members, _ := cgroupMembers(dir)
			r.mu.Lock()
			run.cancelled, run.members = true, members
			r.mu.Unlock()
			if r.killCgroup {
				return os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
			}
			return cmd.Process.Kill()
		}
		if !r.killCgroup && !r.hang {
			cmd.WaitDelay = 100 * time.Millisecond
		}
		disarm, err := startStopping(ctx, cmd, stop)
		if err != nil {
			os.Remove(dir)
			return err
		}
		defer disarm()
		r.mu.Lock()
		run.child = cmd.Process.Pid
		r.mu.Unlock()
		err = cmd.Wait()
		// Killed members take a moment to leave; a runner that kills only
		// the direct child leaves the rest in, and the test removes it.
		grace := time.Duration(0)
		if r.killCgroup {
			grace = time.Second
		}
		removeErr := testenv.RemoveCgroup(dir, grace)
		r.mu.Lock()
		run.removeErr = removeErr
		r.mu.Unlock()
		return err
	}
}

// check fails t unless the one run had the command's direct child and the
// proven descendant in the runner's cgroup at the cancel, and, where the
// runner killed the cgroup, removed the cgroup after Wait: exectest
// neither moved them out nor left anything in it. The check's result must
// say that the fixture was tracked without a cgroup of exectest's, and
// why.
func (r *cgroupRunner) check(t *testing.T, res exectest.Result) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.runs) != 1 {
		t.Fatalf("runs of the cgroup runner: got %d, want 1", len(r.runs))
	}
	run := r.runs[0]
	if !run.cancelled {
		t.Fatalf("runner's cgroup %s: got no cancel, want one", run.dir)
	}
	if !slices.Contains(run.members, run.child) {
		t.Errorf("runner's cgroup %s at the cancel: got members %v, want the direct child pid %d among them (exectest must not move it out)", run.dir, run.members, run.child)
	}
	if d := res.DescendantPID; d == 0 || !slices.Contains(run.members, d) {
		t.Errorf("runner's cgroup %s at the cancel: got members %v, want the proven descendant pid %d among them", run.dir, run.members, d)
	}
	if want := fmt.Sprintf("pid %d runs in a cgroup the code under test chose, %s: exectest does not move it out", run.child, run.dir); !strings.Contains(res.Tracker, want) {
		t.Errorf("Result.Tracker: got %q, want it to say %q", res.Tracker, want)
	}
	if r.killCgroup && run.removeErr != nil {
		t.Errorf("runner removing its cgroup after Wait: got %v, want it removed", run.removeErr)
	}
}

// cleanup removes what the runs left: a cgroup the runner could not
// remove, once exectest has killed the fixture in it.
func (r *cgroupRunner) cleanup(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, run := range r.runs {
		if err := testenv.RemoveCgroup(run.dir, 5*time.Second); err != nil {
			t.Errorf("cgroup runner's leftover: %v", err)
		}
	}
}

// cgroupMembers lists the pids in dir's cgroup.procs.
func cgroupMembers(dir string) ([]int, error) { return (&proc.Cgroup{Path: dir}).PIDs() }

// runnerCgroupParent is where a runner may make its cgroups: the root of
// the cgroup v2 hierarchy, as root; else the test's own cgroup, where
// that one is delegated to the user running the test. It skips t, with
// the reason, where neither works: as an unprivileged user without
// delegation (CI runs the suite so, under EXECTEST_STRICT=1 too: this is
// no missing prerequisite of the toolkit, and the rest of the suite
// covers that user).
func runnerCgroupParent(t *testing.T) string {
	t.Helper()
	root, err := proc.Cgroup2Mount()
	if err != nil {
		t.Skipf("a runner that puts the command in a cgroup of its own needs cgroup v2: %v", err)
	}
	var errs []error
	candidates := []string{root}
	if own, err := testenv.OwnCgroupDir(); err == nil && own != root {
		candidates = append(candidates, own)
	} else if err != nil {
		errs = append(errs, err)
	}
	for _, parent := range candidates {
		if err := probeCgroup(parent); err != nil {
			errs = append(errs, err)
			continue
		}
		return parent
	}
	t.Skipf("a runner that puts the command in a cgroup of its own needs to make one (as root, or in a delegated cgroup; uid %d here): %v", os.Geteuid(), errors.Join(errs...))
	return ""
}

// probeCgroupNamespace starts /bin/true in a cgroup namespace of its
// own, as the runner with namespace does.
func probeCgroupNamespace() error {
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWCGROUP}
	return cmd.Run()
}

// probeCgroup makes and removes a cgroup under parent, as the runner
// will, and checks that it has cgroup.kill (linux 5.14).
func probeCgroup(parent string) error {
	dir, err := os.MkdirTemp(parent, "exectest-"+proc.OwnerTag()+"-probe-")
	if err != nil {
		return err
	}
	defer unix.Rmdir(dir)
	for _, f := range []string{"cgroup.procs", "cgroup.kill"} {
		if err := unix.Access(filepath.Join(dir, f), unix.W_OK); err != nil {
			return fmt.Errorf("%s/%s: %w", dir, f, err)
		}
	}
	return nil
}
