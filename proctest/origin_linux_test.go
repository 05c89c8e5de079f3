package proctest_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/proctest"
)

// A process the test process started and never waited for is never
// reported as adopted once the garbage collector has freed its
// *os.Process (and with it Go's pidfd on it, which is all the toolkit
// went by): it said "(the test process, adopted: its own parent exited)".
// Where the kernel tells (a child of a thread but the main one, where no
// orphan ever goes) the report says the test process; where nothing does
// (a child of the main thread), that it cannot tell.
func TestDroppedChildIsNeverCalledAdopted(t *testing.T) {
	needSubreaper(t)
	base := proctest.IgnoreCurrent()
	pid := startAndDrop(t)
	report, p := findOne(t, base, pid)
	if strings.Contains(report, "adopted: its own parent exited") || p.Adopted {
		t.Errorf("report of a child the test process started, after a GC: got %q (Adopted %v), want no claim that it was adopted", report, p.Adopted)
	}
	want := fmt.Sprintf("ppid %d (the test process), ", os.Getpid())
	if mainThreadChild(pid) {
		want = fmt.Sprintf("ppid %d (the test process; started by it or adopted: cannot tell), ", os.Getpid())
	}
	if !strings.Contains(report, want) || p.OriginUnknown != mainThreadChild(pid) {
		t.Errorf("report of a child of the main thread %v, after a GC: got %q (OriginUnknown %v), want it to say %q", mainThreadChild(pid), report, p.OriginUnknown, want)
	}
}

// A check that saw the test process's child while Go still held its
// pidfd remembers that the test process started it: a report after the
// GC freed the *os.Process says so, whichever thread forked it.
func TestChildSeenStartedStaysStarted(t *testing.T) {
	needSubreaper(t)
	base := proctest.IgnoreCurrent()
	pid := startAndDrop(t, func() { proctest.Find(base, proctest.MaxWait(time.Millisecond)) })
	report, p := findOne(t, base, pid)
	want := fmt.Sprintf("ppid %d (the test process), ", os.Getpid())
	if !strings.Contains(report, want) || p.Adopted || p.OriginUnknown {
		t.Errorf("report of a child seen started by a check, after a GC: got %q (Adopted %v, OriginUnknown %v), want it to say %q", report, p.Adopted, p.OriginUnknown, want)
	}
}

// startAndDrop starts /bin/sleep with exec.Command and never waits for
// it; look runs while the test holds its Cmd. Then it drops the Cmd and
// runs the garbage collector until Go's pidfd on the sleep is closed, or
// skips. The cleanup kills the sleep and reaps it.
func startAndDrop(t *testing.T, look ...func()) int {
	t.Helper()
	pid := func() int {
		cmd := exec.Command("/bin/sleep", "41")
		//execcheck:ignore the leak under test: the cleanup kills and reaps the sleep by identity
		if err := cmd.Start(); err != nil {
			t.Skipf("start /bin/sleep: %v", err)
		}
		for _, f := range look {
			f()
		}
		return cmd.Process.Pid
	}()
	id, err := proc.Identify(pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		id.Kill()
		testenv.AwaitDead(id, 5*time.Second)
		proc.Reap(id)
	})
	// The cleanup that closes the pidfd runs on its own goroutine after a
	// cycle: a few cycles, with time for it.
	for i := 0; proc.GoHoldsPidfd(pid); i++ {
		if i == 50 {
			t.Skipf("pid %d: Go's pidfd still open after %d garbage collections (no pidfd to lose, or the Cmd is still referenced)", pid, i)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	return pid
}

// mainThreadChild reports whether pid is a child of the test process's
// main thread, where orphans are adopted too.
func mainThreadChild(pid int) bool {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/children", os.Getpid()))
	return slices.Contains(strings.Fields(string(b)), fmt.Sprint(pid))
}

// findOne runs a check and returns its line on pid and what it said of
// it as a Process.
func findOne(t *testing.T, base proctest.Option, pid int) (string, proctest.Process) {
	t.Helper()
	var p proctest.Process
	record := proctest.IgnoreProcess(func(q proctest.Process) bool {
		if q.PID == pid {
			p = q
		}
		return false
	})
	err := proctest.Find(base, record, proctest.MaxWait(time.Millisecond))
	if err == nil || p.PID != pid {
		t.Fatalf("Find: got %v, want pid %d reported", err, pid)
	}
	return reportLine(err, pid), p
}
