package proc_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// deadOwnerTag is the owner tag of a test process of this PID namespace
// that has exited.
func deadOwnerTag(t *testing.T) string {
	t.Helper()
	ns, _, _ := strings.Cut(proc.OwnerTag(), ".")
	for range 10 {
		cmd := exec.Command("/bin/true")
		if err := cmd.Run(); err != nil {
			t.Skipf("run /bin/true: %v", err)
		}
		if errors.Is(unix.Kill(cmd.Process.Pid, 0), unix.ESRCH) {
			return ns + "." + strconv.Itoa(cmd.Process.Pid)
		}
	}
	t.Fatal("no pid stayed free after its process exited")
	return ""
}

// What a killed test run left is removed by a later one; what a running
// one, another PID namespace, an older version or anyone else made stays.
func TestRemoveStaleTakesOnlyWhatDeadRunsLeft(t *testing.T) {
	testenv.LinuxMode(t)
	dir := t.TempDir()
	dead := deadOwnerTag(t)
	_, deadPID, _ := strings.Cut(dead, ".")
	names := map[string]bool{ // name -> removed
		"exectest-" + dead + "-tok-1":            true,
		"exectest-" + proc.OwnerTag() + "-tok-2": false,
		"exectest-1." + deadPID + "-tok-3":       false, // another PID namespace
		"exectest-abcdef123456-4":                false, // no owner tag
		"other-" + dead + "-5":                   false,
		"exectest-" + dead + "-but-a-file":       false,
	}
	for name := range names {
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, "-file") {
			os.WriteFile(path, nil, 0o600)
			continue
		}
		os.Mkdir(path, 0o755)
		os.WriteFile(filepath.Join(path, "marker"), nil, 0o600)
	}
	proc.RemoveStale(dir, "exectest-")
	for name, removed := range names {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s after RemoveStale: got removed %v, want %v", name, gone, removed)
		}
	}
}

// A cgroup a killed run left is emptied and removed; one of a running test
// process is not touched.
func TestRemoveStaleEmptiesDeadRunsCgroups(t *testing.T) {
	testenv.LinuxMode(t)
	root, err := proc.Cgroup2Mount()
	if err != nil {
		t.Skipf("no cgroup v2: %v", err)
	}
	stale := filepath.Join(root, "exectest-"+deadOwnerTag(t)+"-staletest")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Skipf("cannot make a cgroup here (not root, not delegated): %v", err)
	}
	t.Cleanup(func() { unix.Rmdir(stale) })
	live := filepath.Join(root, "exectest-"+proc.OwnerTag()+"-livetest")
	if err := os.Mkdir(live, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.WriteFile(live+"/cgroup.kill", []byte("1"), 0)
		time.Sleep(10 * time.Millisecond)
		unix.Rmdir(live)
	})
	sleeps := map[string]*exec.Cmd{}
	for _, cg := range []string{stale, live} {
		cmd := exec.Command("/bin/sleep", "30")
		if err := cmd.Start(); err != nil {
			t.Skipf("start /bin/sleep: %v", err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		if err := os.WriteFile(cg+"/cgroup.procs", []byte(strconv.Itoa(cmd.Process.Pid)), 0); err != nil {
			t.Fatal(err)
		}
		sleeps[cg] = cmd
	}
	// Its sleep is killed first; the cgroup goes once the sleep has left.
	deadline := time.Now().Add(5 * time.Second)
	for {
		proc.RemoveStale(root, "exectest-")
		if _, err := os.Stat(stale); errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cgroup of a dead owner after RemoveStale: got %v, want removed", err)
	}
	if err := sleeps[stale].Wait(); err == nil {
		t.Errorf("process in the dead owner's cgroup: got exit 0, want killed")
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("cgroup of a running owner after RemoveStale: got %v, want it kept", err)
	}
	if id, err := proc.Identify(sleeps[live].Process.Pid); err != nil || !id.Alive() {
		t.Errorf("process in a running owner's cgroup: got dead (%v), want alive", err)
	}
}
