package proc_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// probeEnv makes the test binary a probe that tracks one process as the
// user it runs as, and prints the tracker's mechanism.
const probeEnv = "EXECTEST_PROBE_TRACKER"

// Without rights at the cgroup root, a user whose own cgroup is delegated
// to it (systemd's Delegate=yes) still gets a cgroup per fixture, under
// its own; without delegation it falls back to the subreaper, and says so.
// Setting this up needs root; as nobody, the suite's other tests cover the
// fallback.
func TestTrackerUsesADelegatedCgroup(t *testing.T) {
	testenv.LinuxMode(t)
	if os.Getenv(probeEnv) == "1" {
		probeTracker(t)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("making a cgroup and delegating it to nobody needs root: the fallback without it is what the rest of this run tests")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody to delegate a cgroup to: %v", err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	root, err := proc.Cgroup2Mount()
	if err != nil {
		t.Skipf("no cgroup v2 here: %v", err)
	}
	delegated := filepath.Join(root, fmt.Sprintf("exectest-delegated-%d", os.Getpid()))
	if err := os.Mkdir(delegated, 0o755); err != nil {
		t.Skipf("cannot make a cgroup to delegate, even as root: %v", err)
	}
	t.Cleanup(func() { os.Remove(delegated) })
	// What systemd hands over with Delegate=yes.
	for _, f := range []string{"", "cgroup.procs", "cgroup.threads", "cgroup.subtree_control"} {
		if err := os.Chown(filepath.Join(delegated, f), uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := os.MkdirTemp("", "exectest-probe-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "proc.test")
	if err := testenv.CopyTestBinary(bin); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)

	probe := func(intoCgroup bool) string {
		t.Helper()
		cmd := exec.Command(bin, "-test.run=^TestTrackerUsesADelegatedCgroup$", "-test.v")
		cmd.Env = append(os.Environ(), probeEnv+"=1")
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
		if intoCgroup {
			fd, err := syscall.Open(delegated, syscall.O_DIRECTORY|syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)
			cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("probe as nobody (in the delegated cgroup: %v): %v\n%s", intoCgroup, err, out)
		}
		return string(out)
	}
	if out, want := probe(true), "mechanism: cgroup v2 "+delegated+"/exectest-"; !strings.Contains(out, want) {
		t.Errorf("tracker of nobody in a cgroup delegated to it: got\n%s\nwant it to say %q", out, want)
	}
	if out, want := probe(false), "mechanism: child subreaper and the fixture's reports (no cgroup: "; !strings.Contains(out, want) {
		t.Errorf("tracker of nobody without delegation: got\n%s\nwant it to say %q", out, want)
	}
}

// probeTracker tracks a sleep and kills it through the tracker, as the
// fixture's cleanup would.
func probeTracker(t *testing.T) {
	tr := proc.NewTracker(fmt.Sprintf("probe-%d", os.Getpid()))
	t.Logf("mechanism: %s", tr.Mechanism())
	cmd := exec.Command("/bin/sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Adopt(id); err != nil {
		t.Errorf("Adopt: %v", err)
	}
	if m := tr.Members(nil); len(m) != 1 || m[0] != id {
		t.Errorf("Members: got %v, want %v", m, id)
	}
	if n, err := tr.KillAll(nil); n != 1 || err != nil {
		t.Errorf("KillAll: got %d killed, %v, want the sleep killed", n, err)
	}
	cmd.Wait()
	if err := tr.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
