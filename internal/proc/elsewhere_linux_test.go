package proc_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// A process that the code under test started in a cgroup of its own (as
// systemd, containerd and job runners do, to kill the command through
// it) stays there: Adopt follows it, and its tree, without moving it, and
// the mechanism says which cgroup and why. The tracker's cgroup, unused,
// is removed at once; with a process adopted into it first, it stays for
// that one, and the mechanism names both.
func TestTrackerLeavesAProcessInACgroupTheCodeChose(t *testing.T) {
	testenv.LinuxMode(t)
	if os.Geteuid() != 0 {
		t.Skip("making a cgroup for the command, as a runner does, needs root here: the rest of this run covers the unprivileged user")
	}
	root, err := proc.Cgroup2Mount()
	if err != nil {
		t.Skipf("no cgroup v2 here: %v", err)
	}
	for _, mixed := range []bool{false, true} {
		t.Run(fmt.Sprintf("another process in the tracker's cgroup=%v", mixed), func(t *testing.T) {
			runner, err := os.MkdirTemp(root, "exectest-"+proc.OwnerTag()+"-runner-")
			if err != nil {
				t.Skipf("cannot make a cgroup for the command, even as root: %v", err)
			}
			defer func() {
				if err := testenv.RemoveCgroup(runner, 2*time.Second); err != nil {
					t.Errorf("remove the runner's cgroup: %v", err)
				}
			}()
			fd, err := syscall.Open(runner, syscall.O_DIRECTORY|syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)

			tr := proc.NewTracker(fmt.Sprintf("elsewhere-%v-%d", mixed, os.Getpid()))
			defer tr.Close()
			tracking, ok := strings.CutPrefix(tr.Mechanism(), "cgroup v2 ")
			if !ok {
				t.Skipf("tracker: got %q, want a cgroup v2", tr.Mechanism())
			}
			var known []proc.Identity
			var cmds []*exec.Cmd
			defer func() {
				tr.KillAll(known)
				for _, c := range cmds {
					c.Wait()
				}
				// The sleep that outlived sh came back to the test process.
				tr.ReapOrphans(known, func(id proc.Identity) bool { return slices.Contains(known, id) })
			}()
			start := func(cmd *exec.Cmd) proc.Identity {
				t.Helper()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				cmds = append(cmds, cmd)
				id, err := proc.Identify(cmd.Process.Pid)
				if err != nil {
					t.Fatal(err)
				}
				known = append(known, id)
				if err := tr.Adopt(id); err != nil {
					t.Fatalf("Adopt %v: %v", id, err)
				}
				return id
			}
			if mixed {
				start(exec.Command("/bin/sleep", "43"))
			}
			cmd := exec.Command("/bin/sh", "-c", "/bin/sleep 41 & wait")
			cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
			id := start(cmd)

			if procs := cgroupProcs(t, runner); !slices.Contains(procs, id.PID) {
				t.Errorf("the runner's cgroup %s after Adopt: got members %v, want pid %d still in it", runner, procs, id.PID)
			}
			why := fmt.Sprintf("pid %d runs in a cgroup the code under test chose, %s: exectest does not move it out", id.PID, runner)
			want := "child subreaper and the fixture's reports (" + why + ")"
			if mixed {
				want = "cgroup v2 " + tracking + ", and for the processes outside it child subreaper and the fixture's reports (" + why + ")"
			}
			if got := tr.Mechanism(); got != want {
				t.Errorf("mechanism: got %q, want %q", got, want)
			}
			if _, err := os.Stat(tracking); mixed == errors.Is(err, os.ErrNotExist) {
				t.Errorf("the tracker's cgroup %s, with another process in it: %v: got %v, want it removed only when unused", tracking, mixed, err)
			}

			// sh, its sleep, and the other process if any.
			wantN := len(known) + 1
			var members []proc.Identity
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if members = tr.Members(known); len(members) == wantN {
					break
				}
			}
			if len(members) != wantN {
				t.Fatalf("members: got %v, want %d: sh, its sleep and the other process if any", members, wantN)
			}
			if n, err := tr.KillAll(known); n != wantN || err != nil {
				t.Errorf("KillAll: got %d killed, %v, want %d", n, err, wantN)
			}
		})
	}
}

func cgroupProcs(t *testing.T, dir string) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}
