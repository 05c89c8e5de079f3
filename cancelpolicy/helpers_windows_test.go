package cancelpolicy_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/windows"
)

// bound is what a stopped tree gets to end after the cancel: generous for
// Wine, where TerminateJobObject ends a tree within 100 ms, and far below
// policyWaitDelay, so that only the job (not the backstop) can meet it.
const (
	bound           = 3 * time.Second
	policyWaitDelay = 15 * time.Second
	// settle is how long after the runner returned the ground truth is
	// taken: a terminated process is gone within it.
	settle = 300 * time.Millisecond
)

// newTree makes a tree's token and report folder; when the test ends,
// whatever of the tree still runs is terminated.
func newTree(t *testing.T) tree {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	tr := tree{token: "cptree-" + hex.EncodeToString(b), dir: tempDir(t)}
	t.Cleanup(func() { terminate(t, livingWith(t, tr.token)) })
	return tr
}

// tempDir is t.TempDir for Wine 8: os.RemoveAll fails there ("unlinkat:
// Invalid function": Go 1.26 deletes with POSIX semantics, which Wine 8
// lacks), while os.Remove of each file works.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "cancelpolicy-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("remove %s: %v", dir, err)
			return
		}
		for _, e := range entries {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Errorf("remove %s: %v", dir, err)
			}
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("remove %s: %v", dir, err)
		}
	})
	return dir
}

// A living process is one whose command line holds a tree's token and
// that has not exited, held by a handle opened before its command line
// was read: the handle keeps its pid from naming another process.
type living struct {
	pid     uint32
	cmdline string
	h       windows.Handle
}

func (p living) String() string { return fmt.Sprintf("pid %d (%s)", p.pid, p.cmdline) }

// livingWith lists the live processes whose command line holds token,
// judged without the package under test: every pid from the system,
// opened, its command line read (gopsutil), and its handle not signalled.
// The handles close when the test ends.
func livingWith(t *testing.T, token string) []living {
	t.Helper()
	pids, err := process.Pids()
	if err != nil {
		t.Fatalf("list processes: %v", err)
	}
	var found []living
	for _, pid := range pids {
		h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_TERMINATE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
		if err != nil {
			continue // gone, or not ours to see
		}
		cmdline, err := (&process.Process{Pid: pid}).Cmdline()
		if err != nil || !strings.Contains(cmdline, token) {
			windows.CloseHandle(h)
			continue
		}
		if ev, _ := windows.WaitForSingleObject(h, 0); ev != uint32(windows.WAIT_TIMEOUT) {
			windows.CloseHandle(h)
			continue // exited
		}
		found = append(found, living{pid: uint32(pid), cmdline: cmdline, h: h})
		t.Cleanup(func() { windows.CloseHandle(h) })
	}
	return found
}

// terminate terminates processes identified by livingWith, through the
// handles that identified them.
func terminate(t *testing.T, ps []living) {
	t.Helper()
	for _, p := range ps {
		if err := windows.TerminateProcess(p.h, 1); err != nil {
			t.Errorf("terminate %v: %v", p, err)
		}
	}
}

// A runner runs argv with its stdout and stderr in out (a bytes.Buffer:
// os/exec copies through a pipe, and Wait waits for it) until ctx is
// cancelled, as the code under test does.
type runner func(ctx context.Context, argv []string, out *bytes.Buffer) error

// verdict is what happened to a tree cancelled once its grandchild ran.
type verdict struct {
	returned bool          // the runner returned within bound of the cancel
	after    time.Duration // how long after the cancel it returned
	err      error         // what it returned
	living   []living      // the tree's live processes settle after the return (at the bound if none)
	output   string
}

// problems says what the verdict shows wrong; none for a stopped tree.
func (v verdict) problems() []string {
	var ps []string
	if !v.returned {
		ps = append(ps, fmt.Sprintf("runner: got no return %v after the cancel, want one within it", bound))
	}
	when := fmt.Sprintf("%v after the runner returned", settle)
	if !v.returned {
		when = fmt.Sprintf("%v after the cancel, the runner blocked", bound)
	}
	for _, p := range v.living {
		ps = append(ps, fmt.Sprintf("%v: got alive %s, want no process of the tree", p, when))
	}
	return ps
}

// judge runs the tree of role with run, cancels once the grandchild
// reports it runs, and takes the ground truth: whether run returned
// within bound, and which of the tree's processes live settle later. A
// runner still blocked at the bound is unblocked by terminating the tree,
// so that judge is bounded too. A start flake of Wine's is tried again.
func judge(t *testing.T, role string, run runner) verdict {
	t.Helper()
	for try := 1; ; try++ {
		v, early := judgeOnce(t, role, run)
		if early == nil {
			return v
		}
		if try == 3 || !startFlake(early) {
			t.Fatalf("runner: returned %v before the grandchild's report, want it running until the cancel; output %q", early, v.output)
		}
		t.Logf("runner, try %d of 3: %v; again (a Wine start flake)", try, early)
	}
}

// judgeOnce is one try of judge; early is the error of a runner that
// returned before the grandchild reported.
func judgeOnce(t *testing.T, role string, run runner) (v verdict, early error) {
	t.Helper()
	tr := newTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	done := make(chan error, 1)
	returned := make(chan struct{})
	go func() {
		done <- run(ctx, tr.argv(role), &out)
		close(returned)
	}()
	if err := awaitFile(tr.report(roleGrandchild), returned); err != nil {
		cancel()
		select {
		case runErr := <-done:
			if runErr == nil {
				runErr = errors.New("nil")
			}
			return verdict{output: out.String()}, runErr
		case <-time.After(bound):
			t.Fatalf("%v; the runner has not returned", err)
		}
	}
	// Taken before the cancel: os/exec's goroutine may act on it (and
	// start its WaitDelay timer) before this one runs again.
	begin := time.Now()
	cancel()
	select {
	case v.err = <-done:
		v.returned, v.after = true, time.Since(begin)
		time.Sleep(settle)
		v.living = livingWith(t, tr.token)
	case <-time.After(bound):
		v.after = time.Since(begin)
		v.living = livingWith(t, tr.token)
		terminate(t, v.living)
		select {
		case v.err = <-done:
		case <-time.After(reportLimit):
			t.Fatalf("runner: got no return %v after its tree was terminated", reportLimit)
		}
	}
	v.output = out.String()
	return v, nil
}

// stopped checks a runner that must stop the tree: no problem, and an
// error that says the command was stopped (killed, or ctx's error when
// the direct child had exited), not WaitDelay's.
func stopped(t *testing.T, what string, v verdict) {
	t.Helper()
	for _, p := range v.problems() {
		t.Errorf("%s: %s", what, p)
	}
	var exit *exec.ExitError
	if !errors.As(v.err, &exit) && !errors.Is(v.err, context.Canceled) || errors.Is(v.err, exec.ErrWaitDelay) {
		t.Errorf("%s: runner: got %v, want the child's exit status or context.Canceled", what, v.err)
	}
	if !t.Failed() {
		t.Logf("%s: returned %v after the cancel: %v", what, v.after.Round(time.Millisecond), v.err)
	}
}
