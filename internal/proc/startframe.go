package proc

import (
	"fmt"
	"os"
	"sync/atomic"

	"github.com/shirou/gopsutil/v4/process"
)

// startShift is added to every creation time the portable mode reads, in
// ms: what turns this process's reads into another's (see
// [MeasureStartsAs]); 0 in the test process.
var startShift atomic.Int64

// psCreated is gopsutil's creation time of p, ms since the epoch, as the
// process this one measures like would read it.
func psCreated(p *process.Process) (uint64, error) {
	t, err := p.CreateTime()
	if err != nil {
		return 0, err
	}
	return uint64(t + startShift.Load()), nil
}

// MeasureStartsAs makes the start times this process reads those its
// parent, owner, reads: owner is the parent's identity as the parent read
// it. In the portable mode gopsutil derives each start from a boot time
// that every process reads for itself (in a container, against the clock,
// to the second), so the watchdog's reads can be a second off the test
// process's, and every process the test process named to it would seem
// gone. The shift is the parent's start as it read it, less the same
// start read here; this process must still be owner's child when the read
// is done, so that the pid was owner's throughout. The Linux mode reads
// ticks since boot, the same for every reader: there the shift must be 0.
func MeasureStartsAs(owner Identity) error {
	s, err := ReadStat(owner.PID)
	if err != nil {
		return fmt.Errorf("proctest: start times of the parent, pid %d: %w", owner.PID, err)
	}
	if ppid := os.Getppid(); ppid != owner.PID {
		return fmt.Errorf("proctest: start times of the parent: got parent pid %d, want %d (it exited)", ppid, owner.PID)
	}
	shift := int64(owner.Start) - (int64(s.Start) - startShift.Load())
	if !Portable() {
		if shift != 0 {
			return fmt.Errorf("proctest: start of the parent, pid %d: got %d, want %d, as read here", owner.PID, owner.Start, s.Start)
		}
		return nil
	}
	startShift.Store(shift)
	return nil
}
