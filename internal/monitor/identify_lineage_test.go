//go:build unix

package monitor

import (
	"os"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// The portable mode takes a report's pid at its word only where the
// process stands where a fixture's would: a fixture child below the test
// process, a descendant no older than the first fixture child.
func TestPortableIdentifyRefusesStrangers(t *testing.T) {
	cmd := testenv.StartSleep(t, "30")
	child, err := proc.ReadStat(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if !belowTest(child) {
		t.Errorf("belowTest of the test's own child: got false, want true")
	}
	parent, err := proc.ReadStat(os.Getppid())
	if err != nil {
		t.Fatal(err)
	}
	if belowTest(parent) {
		t.Errorf("belowTest of the test's parent: got true, want false")
	}
	m := &Monitor{child: child}
	if why := m.olderThanChild(proc.Identity{PID: parent.PID, Start: parent.Start}, parent); !strings.Contains(why, "started before the fixture child") {
		t.Errorf("olderThanChild of a process older than the fixture child: got %q, want it refused", why)
	}
	if why := m.olderThanChild(proc.Identity{PID: child.PID, Start: child.Start}, child); why != "" {
		t.Errorf("olderThanChild of the fixture child's own age: got %q, want none", why)
	}
	// No fixture child known (its report refused: a pid of a sandbox's
	// own PID namespace): a process older than the test process, as the
	// kernel thread the host's pid 8 was, is no descendant; one the test
	// started is not refused for its age.
	none := &Monitor{}
	if why := none.olderThanChild(proc.Identity{PID: parent.PID, Start: parent.Start}, parent); !strings.Contains(why, "started before the test process") {
		t.Errorf("olderThanChild of a process older than the test, no fixture child known: got %q, want it refused", why)
	}
	if why := none.olderThanChild(proc.Identity{PID: child.PID, Start: child.Start}, child); why != "" {
		t.Errorf("olderThanChild of the test's child, no fixture child known: got %q, want none", why)
	}
	if !proc.Portable() {
		t.Skipf("identifyPortable: the portable mode's (run with %s=1); belowTest and olderThanChild passed", proc.PortableEnv)
	}
	// A stranger's report: the test's parent calls itself a fixture child.
	_, _, reason, _ := identifyPortable(marker.Event{Kind: marker.Started, PID: os.Getppid()}, "")
	if !strings.Contains(reason, "not below the test process") {
		t.Errorf("identifyPortable of a stranger's started report: got reason %q, want it refused as not below the test process", reason)
	}
	_, id, reason, gone := identifyPortable(marker.Event{Kind: marker.Started, PID: cmd.Process.Pid}, "")
	if reason != "" || gone || id.PID != cmd.Process.Pid || id.Start != child.Start {
		t.Errorf("identifyPortable of the test's child: got %v, %q, gone %v, want pid %d, start %d", id, reason, gone, cmd.Process.Pid, child.Start)
	}
}
