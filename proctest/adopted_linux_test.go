package proctest_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/proctest"
)

// A check reaps the zombie of an orphan the test process adopted (the
// background child of a shell that exited, which then ended), which
// nothing else would; the zombie of a process os/exec started is left for
// its Wait, which then succeeds.
func TestChecksReapAdoptedZombies(t *testing.T) {
	needSubreaper(t)
	adopted := orphan(t, "0.05", unseenFirst)
	started := exec.Command("/bin/true")
	if err := started.Start(); err != nil {
		t.Fatal(err)
	}
	startedID, err := proc.Identify(started.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	awaitZombie(t, adopted)
	awaitZombie(t, startedID)

	proctest.Find(proctest.MaxWait(time.Millisecond))

	if _, err := adopted.Stat(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the adopted orphan's zombie %v after a check: got %v, want it reaped", adopted, err)
	}
	if s, err := startedID.Stat(); err != nil || !s.Zombie() {
		t.Errorf("the zombie os/exec started, %v, after a check: got %+v, %v, want it left for its Wait", startedID, s, err)
	}
	if err := started.Wait(); err != nil {
		t.Errorf("Wait of the process os/exec started, after a check: got %v, want nil", err)
	}
}

// A report names the test process as the parent, and says of a process
// the test process adopted (its own parent exited) that it was adopted,
// not started by the test binary, where exectest saw it with that parent;
// of an orphan it never saw before its parent exited, that it cannot tell.
func TestReportNamesTheTestProcessAndAdopted(t *testing.T) {
	needSubreaper(t)
	base := proctest.IgnoreCurrent()
	started := testenv.StartSleep(t, "38")
	adopted := orphan(t, "39", seenFirst)
	unseen := orphan(t, "40", unseenFirst)
	var seen []proctest.Process
	record := proctest.IgnoreProcess(func(p proctest.Process) bool { seen = append(seen, p); return false })
	err := proctest.Find(base, record, proctest.MaxWait(time.Millisecond))
	if err == nil {
		t.Fatal("Find: got nil, want the three sleeps reported")
	}
	self := os.Getpid()
	for _, c := range []struct {
		pid              int
		want             string
		adopted, unknown bool
	}{
		{started.Process.Pid, fmt.Sprintf("ppid %d (the test process), ", self), false, false},
		{adopted.PID, fmt.Sprintf("ppid %d (the test process, adopted: its own parent exited), ", self), true, false},
		{unseen.PID, fmt.Sprintf("ppid %d (the test process; started by it or adopted: cannot tell), ", self), false, true},
	} {
		if line := reportLine(err, c.pid); !strings.Contains(line, c.want) {
			t.Errorf("report of pid %d: got %q, want it to say %q; the report:\n%v", c.pid, line, c.want, err)
		}
		for _, p := range seen {
			if p.PID == c.pid && (p.Adopted != c.adopted || p.OriginUnknown != c.unknown) {
				t.Errorf("Process of pid %d: got Adopted %v, OriginUnknown %v, want %v, %v", c.pid, p.Adopted, p.OriginUnknown, c.adopted, c.unknown)
			}
		}
	}
}

// reportLine is the line of a proctest report that describes pid.
func reportLine(err error, pid int) string {
	for l := range strings.Lines(err.Error()) {
		if strings.Contains(l, fmt.Sprintf("pid %d: ", pid)) {
			return l
		}
	}
	return ""
}

// needSubreaper skips where the test process adopts no orphan.
func needSubreaper(t *testing.T) {
	t.Helper()
	if proc.Portable() {
		t.Skipf("portable mode: no child subreaper, so no orphan comes to the test process")
	}
	if !proc.IsSubreaper() {
		t.Fatalf("test binary: got no child subreaper, want one (exectest.VerifyTestMain turns it on)")
	}
}

// Whether a check looks at the orphan while its shell still lives.
const (
	seenFirst   = true
	unseenFirst = false
)

// orphan starts /bin/sleep secs through a shell that then exits: the
// sleep comes to the test process, the child subreaper. With seen, a
// proctest check looks at the processes first, while the shell lives:
// exectest then knows the sleep had another parent. It is killed, awaited
// and reaped at the test's end.
func orphan(t *testing.T, secs string, seen bool) proc.Identity {
	t.Helper()
	sh := exec.Command("/bin/sh", "-c", `/bin/sleep "$1" & echo $!; read -r _`, "sh", secs)
	in, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the shell exits once told; its sleep, adopted by the test process, is killed and reaped by identity at the end
	if err := sh.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	var pid int
	_, scanErr := fmt.Fscan(bufio.NewReader(out), &pid)
	if scanErr == nil && seen {
		proctest.Find(proctest.MaxWait(time.Millisecond))
	}
	in.Close()
	sh.Wait()
	if scanErr != nil {
		t.Fatal(scanErr)
	}
	id, err := proc.Identify(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		id.Kill()
		testenv.AwaitDead(id, 5*time.Second)
		proc.Reap(id)
	})
	return id
}

// awaitZombie waits until id is a zombie of the test process.
func awaitZombie(t *testing.T, id proc.Identity) {
	t.Helper()
	if !backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		s, err := id.Stat()
		return err == nil && s.Zombie()
	}) {
		t.Fatalf("%v: not a zombie of the test process within 5s", id)
	}
}

// A pidfd the toolkit holds on an orphan the test process adopted (the
// watch on a fixture's descendant) says nothing of who started it: the
// orphan is still adopted, in a report too, and its zombie is still reaped
// by a check, which os/exec's pidfds would forbid.
func TestToolkitPidfdsLeaveAdoptedAlone(t *testing.T) {
	needSubreaper(t)
	adopted := orphan(t, "0.2", seenFirst)
	w, err := procstate.Open(adopted)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := proc.OriginOf(adopted, os.Getpid()); got != proc.Adopted {
		t.Errorf("OriginOf %v, watched by the toolkit: got %v, want Adopted", adopted, got)
	}
	if d, ok := proc.Describe(adopted, ""); !ok || !d.Adopted {
		t.Errorf("Describe of %v, watched by the toolkit: got Adopted %v (found %v), want true", adopted, d.Adopted, ok)
	}
	awaitZombie(t, adopted)
	proctest.Find(proctest.MaxWait(time.Millisecond))
	if _, err := adopted.Stat(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the adopted orphan's zombie %v, watched by the toolkit, after a check: got %v, want it reaped", adopted, err)
	}
}
