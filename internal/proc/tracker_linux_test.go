package proc_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
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
	testenv.LinuxMode(t)
	tr := proc.NewTracker(fmt.Sprintf("test-%d", os.Getpid()))
	if !strings.HasPrefix(tr.Mechanism(), "cgroup v2") {
		tr.Close()
		t.Skipf("tracker: got %q, want a cgroup v2 (root, or a delegated cgroup)", tr.Mechanism())
	}
	cmd, in := escaper(t)
	id, err := proc.Identify(cmd.Process.Pid)
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
	var escapee *proc.Process
	for deadline := time.Now().Add(5 * time.Second); escapee == nil && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		for _, m := range tr.Members(nil) {
			if p, ok := proc.Describe(m, ""); ok && p.Cmdline == "/bin/sleep 37" {
				escapee = &p
			}
		}
	}
	if escapee == nil {
		t.Fatalf("members after the adopted sh left a setsid sleep and exited: got none, want /bin/sleep 37")
	}
	// Read again: the stat and the command line are read one after the
	// other, and the sid may have been read before setsid(1) called setsid.
	if s, err := escapee.ID().Stat(); err != nil || s.SID != escapee.PID {
		t.Errorf("escapee: got sid %d (%v), want its own pid %d", s.SID, err, escapee.PID)
	}
	if n, err := tr.KillAll(nil); err != nil || n != 1 {
		t.Errorf("KillAll: got %d killed, %v, want the escapee killed", n, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for escapee.ID().Alive() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if escapee.ID().Alive() {
		t.Errorf("escapee %v after KillAll: got alive, want dead", escapee.ID())
	}
	tr.ReapOrphans([]proc.Identity{escapee.ID()}, func(proc.Identity) bool { return false })
	path := strings.TrimPrefix(tr.Mechanism(), "cgroup v2 ")
	if err := tr.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("cgroup %s after Close: got %v, want it removed", path, err)
	}
}

func TestTrackerWithoutCgroupFollowsReportedTrees(t *testing.T) {
	testenv.LinuxMode(t)
	// Whatever the mechanism, a reported process and its children are
	// members, and a process outside them is not.
	tr := proc.NewTracker(fmt.Sprintf("tree-%d", os.Getpid()))
	defer tr.Close()
	cmd := exec.Command("/bin/sh", "-c", "/bin/sleep 38 & wait")
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	id, _ := proc.Identify(cmd.Process.Pid)
	defer func() { tr.KillAll([]proc.Identity{id}); cmd.Wait() }()
	bystander := testenv.StartSleep(t, "39")
	var members []proc.Identity
	for range 1000 {
		if members = tr.Members([]proc.Identity{id}); len(members) == 2 {
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

// Without a cgroup, a fixture process whose parent died before it could
// report comes back to the test process, the child subreaper, and is
// found by the file it holds: a member, killed with the others, and left
// unreaped (a child of the test process may be os/exec's to wait for). A
// child that holds nothing of the fixture's is never a member.
func TestTrackerFindsOrphansByTheFileTheyHold(t *testing.T) {
	testenv.LinuxMode(t)
	if err := proc.EnableSubreaper(); err != nil {
		t.Skipf("no child subreaper: %v", err)
	}
	dir := t.TempDir()
	held := dir + "/held"
	if err := os.WriteFile(held, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dir + "/out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	bystander := exec.Command("/bin/sleep", "31")
	if err := bystander.Start(); err != nil {
		t.Skipf("start /bin/sleep: %v", err)
	}
	t.Cleanup(func() { bystander.Process.Kill(); bystander.Wait() })

	// The parent leaves the sleep behind and exits at once.
	parent := exec.Command("/bin/sh", "-c", `exec 9<"$0"; /bin/sleep 32 & echo $!`, held)
	parent.Stdout = out
	if err := parent.Run(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dir + "/out")
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("orphan's pid: %v", err)
	}
	orphan, err := proc.Identify(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { orphan.Kill(); proc.Reap(orphan) })

	tr := proc.NewTrackerWithoutCgroup(fmt.Sprintf("test-%d", os.Getpid()))
	defer tr.Close()
	if err := tr.FollowHolders(held); err != nil {
		t.Fatal(err)
	}
	members := tr.Members(nil)
	if len(members) != 1 || members[0] != orphan {
		t.Fatalf("members with an unreported orphan holding the file: got %v, want [%v]", members, orphan)
	}
	if n, err := tr.KillAll(nil); n != 1 || err != nil {
		t.Errorf("KillAll: got %d killed, %v, want the orphan killed", n, err)
	}
	for deadline := time.Now().Add(5 * time.Second); orphan.Alive() && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	tr.ReapOrphans(nil, func(proc.Identity) bool { return false })
	if s, err := orphan.Stat(); err != nil || !s.Zombie() {
		t.Errorf("orphan after KillAll and ReapOrphans: got %+v, %v, want a zombie left for its owner to reap", s, err)
	}
	if id, err := proc.Identify(bystander.Process.Pid); err != nil || !id.Alive() {
		t.Errorf("bystander child holding nothing of the fixture's: got dead (%v), want alive", err)
	}
}

// A child of the test process that holds the fixture's FIFO through a
// close-on-exec descriptor is the test process's own fork on its way to
// exec (another test's command), not a fixture process: never a member.
// Under load the suite once saw such a child killed as an orphan.
func TestTrackerIgnoresCloseOnExecHolders(t *testing.T) {
	testenv.LinuxMode(t)
	held := t.TempDir() + "/held"
	if err := os.WriteFile(held, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	helper := testenv.HelperCommand(t, holdRole, held)
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the helper re-executes the test binary and starts nothing; the cleanup kills and reaps it
	testenv.Start(t, helper)
	if err := waitForLine(out, "holding"); err != nil {
		t.Fatalf("helper: %v", err)
	}
	tr := proc.NewTrackerWithoutCgroup(fmt.Sprintf("test-%d", os.Getpid()))
	defer tr.Close()
	if err := tr.FollowHolders(held); err != nil {
		t.Fatal(err)
	}
	if members := tr.Members(nil); len(members) != 0 {
		t.Errorf("members with a child holding the file close-on-exec: got %v, want none", members)
	}
}

func waitForLine(r io.Reader, want string) error {
	b := make([]byte, 0, 256)
	buf := make([]byte, 256)
	for !strings.Contains(string(b), want) {
		n, err := r.Read(buf)
		if err != nil {
			return fmt.Errorf("got %q then %v, want %q", b, err, want)
		}
		b = append(b, buf[:n]...)
	}
	return nil
}

// Killing a cgroup already removed (a fixture its check released) kills
// nothing and is no error: it has no member left.
func TestKillOfARemovedCgroupIsNoError(t *testing.T) {
	cg, err := proc.NewCgroup("removed-" + strconv.Itoa(os.Getpid()))
	if err != nil {
		t.Skipf("no cgroup to make here: %v", err)
	}
	if err := cg.Remove(); err != nil {
		t.Fatal(err)
	}
	if err := cg.Kill(); err != nil {
		t.Errorf("Kill of the removed cgroup %s: got %v, want nil", cg.Path, err)
	}
}
