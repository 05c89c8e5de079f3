//go:build unix

package proctest_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/proctest"
)

// These tests see every process below the test binary: not parallel.

func TestVerifyNoneFailsOnALeak(t *testing.T) {
	base := proctest.IgnoreCurrent()
	cmd := testenv.StartSleep(t, "31")
	var rt recordingT
	proctest.VerifyNone(&rt, base, proctest.MaxWait(50*time.Millisecond))
	want := fmt.Sprintf("pid %d", cmd.Process.Pid)
	if !strings.Contains(rt.text(), "unexpected processes below the test process: got 1, want 0") ||
		!strings.Contains(rt.text(), want) || !strings.Contains(rt.text(), "/bin/sleep 31") {
		t.Errorf("VerifyNone with a leaked sleep: got %q, want it to name %s and /bin/sleep 31", rt.text(), want)
	}
	if portable := strings.Contains(rt.text(), "portable mode: "); portable != proc.Portable() {
		t.Errorf("VerifyNone's report in the %s mode: got %q, want the portable mode named there and only there", proc.Mode(), rt.text())
	}
}

func TestVerifyNonePassesWhenClean(t *testing.T) {
	base := proctest.IgnoreCurrent()
	cmd := testenv.StartSleep(t, "32")
	cmd.Process.Kill()
	cmd.Wait()
	zombie := exec.Command("/bin/true") // exited, never waited: dead all the same
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	defer zombie.Wait()
	var rt recordingT
	proctest.VerifyNone(&rt, base)
	if len(rt.errors) > 0 {
		t.Errorf("VerifyNone after the leak was stopped: got %q, want no error", rt.text())
	}
}

func TestIgnoreCurrentAndIgnoreProcess(t *testing.T) {
	before := testenv.StartSleep(t, "33")
	base := proctest.IgnoreCurrent()
	testenv.StartSleep(t, "34")
	var rt recordingT
	proctest.VerifyNone(&rt, base, proctest.IgnoreProcess(func(p proctest.Process) bool {
		return p.Cmdline == "/bin/sleep 34"
	}))
	if len(rt.errors) > 0 {
		t.Errorf("VerifyNone ignoring the current sleep 33 and sleep 34 by name: got %q, want no error", rt.text())
	}
	_ = before
}

func TestFindSeesADoubleForkEscapee(t *testing.T) {
	if proc.Portable() {
		t.Skipf("portable mode: cannot see an escaped orphan reparented to init (no child subreaper), so this verdict is the Linux mode's only")
	}
	if !proc.IsSubreaper() {
		t.Fatalf("test binary: got no child subreaper, want one (exectest.VerifyTestMain turns it on)")
	}
	base := proctest.IgnoreCurrent()
	// sh exits at once; its setsid child is an orphan, reparented to us.
	out, err := exec.Command("/bin/sh", "-c", "setsid /bin/sleep 35 >/dev/null 2>&1 </dev/null & echo $!").Output()
	if err != nil {
		t.Skipf("double fork: %v", err)
	}
	pid := 0
	fmt.Sscan(string(out), &pid)
	id, err := proc.Identify(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		id.Kill()
		for range 1000 {
			if proc.Reap(id) || !id.Alive() && !isZombie(id) {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	err = proctest.Find(base, proctest.MaxWait(50*time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", pid)) {
		t.Errorf("Find after a double fork: got %v, want it to name the escapee pid %d", err, pid)
	}
}

func isZombie(id proc.Identity) bool {
	s, err := id.Stat()
	return err == nil && s.Zombie()
}

func TestVerifyNoneLeavesFixturesToTheirCheck(t *testing.T) {
	base := proctest.IgnoreCurrent()
	tr := proc.NewTracker(fmt.Sprintf("verify-%d", os.Getpid()))
	defer tr.Close()
	cmd := testenv.StartSleep(t, "36")
	id, _ := proc.Identify(cmd.Process.Pid)
	tr.Adopt(id)
	var rt recordingT
	proctest.VerifyNone(&rt, base, proctest.MaxWait(50*time.Millisecond))
	if len(rt.errors) > 0 {
		t.Errorf("VerifyNone with a fixture's process in use: got %q, want it left to the fixture's check", rt.text())
	}
	cmd.Process.Kill()
	cmd.Wait()
}
