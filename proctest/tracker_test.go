package proctest_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/proctest"
)

// escaper starts sh, which forks nothing until it reads a line, then
// leaves a setsid'd sleep behind and exits: the daemon shape.
func escaper(t *testing.T) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", "read go; setsid /bin/sleep 37 </dev/null >/dev/null 2>&1 & exit 0")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	return cmd, in
}

func TestTrackerFollowsAnEscapee(t *testing.T) {
	tr := proctest.NewTracker(fmt.Sprintf("test-%d", os.Getpid()))
	if !strings.HasPrefix(tr.Mechanism(), "cgroup v2") {
		tr.Close()
		t.Skipf("tracker: got %q, want a cgroup v2 (root, or a delegated cgroup)", tr.Mechanism())
	}
	cmd, in := escaper(t)
	id, err := proctest.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Adopt(id); err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	in.Write([]byte("go\n"))
	in.Close()
	cmd.Wait()

	t.Cleanup(func() { tr.KillAll(nil); tr.Close() })
	// setsid execs the sleep a moment after sh has exited.
	var escapee *proctest.Process
	for deadline := time.Now().Add(5 * time.Second); escapee == nil && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		for _, m := range tr.Members(nil) {
			if p, ok := proctest.Describe(m, ""); ok && p.Cmdline == "/bin/sleep 37" {
				escapee = &p
			}
		}
	}
	if escapee == nil {
		t.Fatalf("members after the adopted sh left a setsid sleep and exited: got none, want /bin/sleep 37")
	}
	// Read again: the stat and the command line are read one after the
	// other, and the sid may have been read before setsid(1) called setsid.
	if s, err := escapee.Stat(); err != nil || s.SID != escapee.PID {
		t.Errorf("escapee: got sid %d (%v), want its own pid %d", s.SID, err, escapee.PID)
	}
	if n, err := tr.KillAll(nil); err != nil || n != 1 {
		t.Errorf("KillAll: got %d killed, %v, want the escapee killed", n, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for escapee.Alive() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if escapee.Alive() {
		t.Errorf("escapee %v after KillAll: got alive, want dead", escapee.Identity)
	}
	tr.ReapOrphans([]proctest.Identity{escapee.Identity}, func(proctest.Identity) bool { return false })
	path := strings.TrimPrefix(tr.Mechanism(), "cgroup v2 ")
	if err := tr.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("cgroup %s after Close: got %v, want it removed", path, err)
	}
}

func TestTrackerWithoutCgroupFollowsReportedTrees(t *testing.T) {
	// Whatever the mechanism, a reported process and its children are
	// members, and a process outside them is not.
	tr := proctest.NewTracker(fmt.Sprintf("tree-%d", os.Getpid()))
	defer tr.Close()
	cmd := exec.Command("/bin/sh", "-c", "/bin/sleep 38 & wait")
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	id, _ := proctest.Identify(cmd.Process.Pid)
	defer func() { tr.KillAll([]proctest.Identity{id}); cmd.Wait() }()
	bystander := leak(t, "39")
	var members []proctest.Identity
	for range 1000 {
		if members = tr.Members([]proctest.Identity{id}); len(members) == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if len(members) != 2 {
		t.Fatalf("members of sh and its sleep: got %v, want 2", members)
	}
	for _, m := range members {
		if m.PID == bystander.Process.Pid {
			t.Errorf("members: got the bystander pid %d, want only the reported tree", m.PID)
		}
	}
}
