package watchdog_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// frameShift is how far the test process's start times are from the
// watchdog's own reads in TestWatchdogMeasuresStartsAsItsOwner: a second,
// as when gopsutil read the boot time a second apart in the two (in a
// container it reads it against the clock, to the second).
const frameShift = 1000

// A portable-mode watchdog reads start times as the test process does,
// whatever boot time each read: at EOF it kills a process the test
// process named by its start a second off the watchdog's own reads, and
// leaves alone one named by the watchdog's own reading of its start, which
// in the test process's terms is another process.
func TestWatchdogMeasuresStartsAsItsOwner(t *testing.T) {
	owner := proc.Identity{PID: os.Getpid(), Start: created(t, os.Getpid()) + frameShift}
	wd := startWatchdog(t, owner, proc.PortableEnv+"=1")
	named, other := testenv.SleepingProcess(t), testenv.SleepingProcess(t)
	fmt.Fprintf(wd.w, "proc tok1 %d %d\n", named.PID, created(t, named.PID)+frameShift)
	fmt.Fprintf(wd.w, "proc tok1 %d %d\n", other.PID, created(t, other.PID))
	closed := wd.closeAndAwaitExit(t)
	if !testenv.AwaitDead(named, goneWithin-time.Since(closed)) {
		t.Errorf("pid %d, named by its start as the test process reads it, %v after EOF: alive, want dead", named.PID, goneWithin)
	}
	if !other.Alive() {
		t.Errorf("pid %d, named by a start %d ms off the test process's: got killed, want alive", other.PID, frameShift)
	}
}

// created is gopsutil's creation time of pid, as the portable mode reads
// it (ms since the epoch).
func created(t *testing.T, pid int) uint64 {
	t.Helper()
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := p.CreateTime()
	if err != nil {
		t.Fatal(err)
	}
	return uint64(ms)
}
