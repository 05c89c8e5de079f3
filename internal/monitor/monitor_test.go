//go:build unix

package monitor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/marker"
	"golang.org/x/sys/unix"
)

// startOnFIFOs starts a monitor on two fresh FIFOs, as NewDescendant makes
// them, and returns it with the path the fixture would report to.
func startOnFIFOs(t *testing.T, token string) (*Monitor, string) {
	t.Helper()
	dir := t.TempDir()
	spec := fixture.Spec{Token: token, Marker: filepath.Join(dir, "marker"), Go: filepath.Join(dir, "go")}
	for _, p := range []string{spec.Marker, spec.Go} {
		if err := unix.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Start(spec, false, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m, spec.Marker
}

// awaitChange waits for the monitor's next event after s, up to a bound.
func awaitChange(t *testing.T, s Snapshot) {
	t.Helper()
	select {
	case <-s.Changed:
	case <-time.After(10 * time.Second):
		t.Fatalf("no event within 10s after writing to the FIFO; the monitor knows: %s", s)
	}
}

// The monitor keeps the fixture's fail and exit reports for its token, and
// ignores lines of another token or not of the protocol.
func TestMonitorKeepsReports(t *testing.T) {
	m, path := startOnFIFOs(t, "tok1")
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	before := m.Snapshot()
	w.WriteString("not the protocol\n" + marker.Line("other", marker.Fail, "a stranger's") + marker.Line("tok1", marker.Fail, "cannot fork"))
	awaitChange(t, before)
	s := m.Snapshot()
	if len(s.Failures) != 1 || s.Failures[0] != "cannot fork" {
		t.Errorf("failures: got %q, want only [cannot fork] (the other token's and the stray line ignored)", s.Failures)
	}
	w.WriteString(marker.Line("tok1", marker.Exit, "143"))
	awaitChange(t, s)
	if got := m.ReportedExit(); got != "143" {
		t.Errorf("ReportedExit: got %q, want %q", got, "143")
	}
	if got := m.Snapshot().String(); !strings.Contains(got, "fixture failure: cannot fork") || !strings.Contains(got, "exit with status 143") {
		t.Errorf("String: got %q, want the failure and the exit status in it", got)
	}
}

// What a snapshot says when nothing reported, or the descendant did not.
func TestSnapshotExplain(t *testing.T) {
	if got := (Snapshot{}).String(); !strings.HasPrefix(got, "no report from the fixture child: ") {
		t.Errorf("String of no report: got %q, want it to say no report came", got)
	}
	ran := "the command ran and exited with status 1 before the fixture child reported"
	if got := (Snapshot{}).Explain(ran); got != ran {
		t.Errorf("Explain of a run that ended unreported: got %q, want %q", got, ran)
	}
	if got := (Snapshot{Started: 1}).String(); got != "no proof of life from the descendant" {
		t.Errorf("String of a started fixture without proof: got %q, want %q", got, "no proof of life from the descendant")
	}
}

// The command's own pipes are named by the stdio they are, one name per
// pipe however many of the fds point to it.
func TestStdioPipes(t *testing.T) {
	got := stdioPipes([3]string{"/dev/null", "pipe:[7]", "pipe:[7]"})
	if len(got) != 1 || got["pipe:[7]"] != "stdout+stderr" {
		t.Errorf("stdioPipes: got %v, want map[pipe:[7]:stdout+stderr]", got)
	}
	if got := stdioPipes([3]string{"pipe:[1]", "/dev/null", "socket:[2]"}); len(got) != 1 || got["pipe:[1]"] != "stdin" {
		t.Errorf("stdioPipes: got %v, want map[pipe:[1]:stdin]", got)
	}
}

// A closed monitor says so, and a wait for its next event ends at once:
// the check has released the fixture, and no report will ever come (see
// exectest's WaitAlive after a check).
func TestClosedMonitorAnswersAtOnce(t *testing.T) {
	m, _ := startOnFIFOs(t, "tok-closed")
	before := m.Snapshot()
	if before.Closed {
		t.Fatalf("monitor before Close: got closed, want open")
	}
	m.Close()
	awaitChange(t, before) // the wait that began before Close ends
	after := m.Snapshot()
	if !after.Closed {
		t.Errorf("monitor after Close: got open, want closed")
	}
	awaitChange(t, after) // and one begun after it ends at once
	m.Close()             // a second Close does nothing
}
