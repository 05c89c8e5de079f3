//go:build unix

package proc_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// The portable identity is the pid and gopsutil's creation time, and its
// stat has the facts a message needs.
func TestPortableIdentity(t *testing.T) {
	testenv.PortableMode(t)
	cmd := testenv.StartSleep(t, "30")
	pid := cmd.Process.Pid
	id, err := proc.Identify(pid)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := process.NewProcess(int32(pid))
	created, _ := p.CreateTime()
	if id.Start != uint64(created) || id.Start == 0 {
		t.Errorf("Start: got %d, want gopsutil's creation time %d", id.Start, created)
	}
	backoff.Poll(2*time.Second, time.Millisecond, 50*time.Millisecond, func() bool {
		s, err := id.Stat()
		return err == nil && s.Comm == "sleep" && s.State == "S"
	})
	s, err := id.Stat()
	pgid, _ := unix.Getpgid(os.Getpid())
	sid, _ := unix.Getsid(os.Getpid())
	want := proc.Stat{PID: pid, Comm: "sleep", State: "S", PPID: os.Getpid(), PGID: pgid, SID: sid, Start: id.Start}
	if err != nil || s != want {
		t.Errorf("Stat: got %+v, %v, want %+v", s, err, want)
	}
	if !id.Alive() {
		t.Errorf("Alive of a sleeping process: got false, want true")
	}
	if other := (proc.Identity{PID: pid, Start: id.Start + 1}); other.Alive() {
		t.Errorf("Alive of another start time: got true, want false")
	} else if _, err := other.Stat(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of another start time: got %v, want fs.ErrNotExist", err)
	}
}

// A kill re-checks the identity right before it signals: a recycled pid
// (here: the same pid, another start time) is never signalled.
func TestPortableKillSparesARecycledPID(t *testing.T) {
	testenv.PortableMode(t)
	cmd := testenv.StartSleep(t, "30")
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := (proc.Identity{PID: id.PID, Start: id.Start - 1}).Kill(); err != nil {
		t.Errorf("Kill of another start time: got %v, want nil (nothing to do)", err)
	}
	time.Sleep(50 * time.Millisecond)
	if !id.Alive() {
		t.Fatalf("the process after a kill for another start time: dead, want alive")
	}
	if err := id.Kill(); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Wait after Kill: got %v, want signal: killed", err)
	}
	if id.Alive() {
		t.Errorf("Alive after the kill and the reap: got true, want false")
	}
	if err := id.Kill(); err != nil {
		t.Errorf("Kill of a process gone: got %v, want nil", err)
	}
}

// A zombie counts as dead.
func TestPortableZombieCountsAsDead(t *testing.T) {
	testenv.PortableMode(t)
	cmd := testenv.StartSleep(t, "30")
	id, _ := proc.Identify(cmd.Process.Pid)
	unix.Kill(id.PID, unix.SIGKILL) // not reaped: a zombie until the cleanup
	if !backoff.Poll(2*time.Second, time.Millisecond, 50*time.Millisecond, func() bool { return !id.Alive() }) {
		t.Errorf("Alive of a zombie: got true, want false")
	}
}

// The tree comes from gopsutil's parent links.
func TestPortableTree(t *testing.T) {
	testenv.PortableMode(t)
	cmd := exec.Command("/bin/sh", "-c", "/bin/sleep 30 & wait")
	//execcheck:ignore the cleanup kills the children found below it first, then this child
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, pid := range proc.Children(cmd.Process.Pid) {
			if id, err := proc.Identify(pid); err == nil {
				id.Kill()
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
	})
	var kids []int
	backoff.Poll(2*time.Second, time.Millisecond, 50*time.Millisecond, func() bool {
		kids = proc.Children(cmd.Process.Pid)
		return len(kids) == 1
	})
	if len(kids) != 1 {
		t.Fatalf("Children of sh: got %v, want the sleep", kids)
	}
	all := proc.Descendants(os.Getpid())
	if !slices.Contains(all, cmd.Process.Pid) || !slices.Contains(all, kids[0]) {
		t.Errorf("Descendants of the test process: got %v, want sh %d and its sleep %d among them", all, cmd.Process.Pid, kids[0])
	}
	tr := proc.NewTracker("portable-tree")
	defer tr.Close()
	root, _ := proc.Identify(cmd.Process.Pid)
	if err := tr.Adopt(root); err != nil {
		t.Fatal(err)
	}
	if got := tr.Members(nil); len(got) != 2 {
		t.Errorf("Members: got %v, want sh and its sleep", got)
	}
	if n, err := tr.KillAll(nil); n != 2 || err != nil {
		t.Errorf("KillAll: got %d, %v, want 2, nil", n, err)
	}
	if !strings.HasPrefix(tr.Mechanism(), proc.PortableTracking) || !strings.Contains(tr.Mechanism(), "cannot see") {
		t.Errorf("Mechanism: got %q, want the portable mode and what it cannot see", tr.Mechanism())
	}
}

// What the portable mode has not, it says so; none of it passes as
// nothing found.
func TestPortableCannotSee(t *testing.T) {
	testenv.PortableMode(t)
	if proc.Mode() != "portable" || len(proc.CannotSee()) == 0 {
		t.Errorf("Mode, CannotSee: got %q, %q, want portable and a list", proc.Mode(), proc.CannotSee())
	}
	cmd := testenv.StartSleep(t, "30")
	if fds := proc.FDs(cmd.Process.Pid); fds != nil {
		t.Errorf("FDs of another process: got %v, want none", fds)
	}
	if _, err := proc.FDTarget(cmd.Process.Pid, 1); err == nil {
		t.Errorf("FDTarget of another process: got nil error, want one")
	}
	if err := proc.EnableSubreaper(); err == nil || proc.IsSubreaper() {
		t.Errorf("EnableSubreaper: got %v, IsSubreaper %v, want an error and false", err, proc.IsSubreaper())
	}
	if c, err := proc.NewCgroup("portable"); err == nil || c != nil {
		t.Errorf("NewCgroup: got %v, %v, want none and an error", c, err)
	}
}

// The test process's own descriptors are read by fstat: a pipe opened
// since shows, both ends, and goes once closed.
func TestPortableOwnDescriptors(t *testing.T) {
	testenv.PortableMode(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var ends []proc.FD
	for _, fd := range proc.FDs(os.Getpid()) {
		if fd.Num == int(r.Fd()) || fd.Num == int(w.Fd()) {
			ends = append(ends, fd)
		}
	}
	if len(ends) != 2 || ends[0].Target != ends[1].Target || !proc.IsPipe(ends[0].Target) || ends[0].Write == ends[1].Write {
		t.Errorf("own descriptors on a new pipe: got %+v, want its read and its write end, one pipe", ends)
	}
	target := ends[0].Target
	r.Close()
	w.Close()
	if proc.Pipes(os.Getpid())[target] {
		t.Errorf("Pipes after close: got %s still open", target)
	}
}

// startWith starts /bin/sh -c script name, reaped at the test's end.
func startWith(t *testing.T, script, name string) proc.Identity {
	t.Helper()
	//execcheck:ignore a script the test stops itself: the cleanup kills and reaps it
	return testenv.Start(t, exec.Command("/bin/sh", "-c", script, name))
}

// An orphan of the fixture that never reported, reparented to init, is a
// member in the portable mode by the token in its arguments; a process
// with the token that started before the fixture child (a wrapper of the
// code under test) is not.
func TestPortableTrackerFindsUnreportedOrphansByToken(t *testing.T) {
	testenv.PortableMode(t)
	token := fmt.Sprintf("tok%d", os.Getpid())
	wrapper := startWith(t, "exec sleep 30", "exectest-"+token+"-wrapper")
	time.Sleep(20 * time.Millisecond) // creation times tick in ms, or in 10 ms
	// The child double-forks the orphan and stays.
	child := startWith(t, `(setsid /bin/sh -c 'while :; do sleep 1; done' exectest-`+token+`-orphan &); exec sleep 30`, "exectest-"+token)
	var orphan proc.Identity
	if !backoff.Poll(5*time.Second, time.Millisecond, 50*time.Millisecond, func() bool {
		for _, pid := range proc.Descendants(1) {
			p, err := process.NewProcess(int32(pid))
			if err != nil {
				continue
			}
			if args, _ := p.CmdlineSlice(); slices.Contains(args, "exectest-"+token+"-orphan") {
				orphan, err = proc.Identify(pid)
				return err == nil
			}
		}
		return false
	}) {
		t.Fatalf("the orphan never showed")
	}
	t.Cleanup(func() { orphan.Kill() })
	if slices.Contains(proc.Descendants(os.Getpid()), orphan.PID) {
		t.Skipf("the orphan went to a subreaper below the test process: nothing to find by the token")
	}
	for _, follow := range []bool{false, true} {
		tr := proc.NewTracker("portable-token")
		if follow {
			tr.FollowArg(token)
		}
		tr.Adopt(child)
		got := tr.Members(nil)
		tr.Close()
		if slices.Contains(got, wrapper) {
			t.Errorf("Members: got the wrapper %v, started before the fixture child: want it left out", wrapper)
		}
		if slices.Contains(got, orphan) != follow {
			t.Errorf("Members with FollowArg %v: got %v, want the orphan %v among them: %v", follow, got, orphan, follow)
		}
	}
	tr := proc.NewTracker("portable-token-kill")
	defer tr.Close()
	tr.FollowArg(token)
	tr.Adopt(child)
	if _, err := tr.KillAll(nil); err != nil {
		t.Fatal(err)
	}
	if !backoff.Poll(2*time.Second, time.Millisecond, 50*time.Millisecond, func() bool { return !orphan.Alive() }) {
		t.Errorf("the orphan after KillAll: alive, want dead")
	}
	if !wrapper.Alive() {
		t.Errorf("the wrapper after KillAll: dead, want it spared")
	}
}
