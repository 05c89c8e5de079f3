package monitor

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// A report is resolved to its sender even when a read of the sender failed
// for another reason than its end (gopsutil or /proc misreading once): the
// read is taken again. Only a sender that is gone is gone; before, any
// failed read made it so, and a live descendant "exited right after its
// report".
func TestIdentifyLooksAgainAfterAFailedRead(t *testing.T) {
	fifo := testenv.FixtureFolder(t, t.TempDir(), "exectest-tok")
	holder := testenv.HoldFIFO(t, fifo)
	// The Linux mode's fixture reports marker.Here and its pid; the
	// portable mode's its pid alone, which must be below the test.
	e := marker.Event{Kind: marker.Alive, PID: holder.PID, Stat: marker.Here}
	if proc.Portable() {
		e = marker.Event{Kind: marker.Started, PID: holder.PID}
	}
	for _, c := range []struct {
		name     string
		readErr  error
		wantGone bool
	}{
		{"a read that failed", errors.New("gopsutil: a read that failed"), false},
		{"gone", fs.ErrNotExist, true},
		{"a read that never works", errors.New("gopsutil: a read that failed"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			failures := 3
			if c.name == "a read that never works" {
				failures = 1 << 30
				execWait = 50 * time.Millisecond
				t.Cleanup(func() { execWait = 5 * time.Second })
			}
			failing := func(read func() (proc.Stat, error)) (proc.Stat, error) {
				if failures > 0 {
					failures--
					return proc.Stat{}, c.readErr
				}
				return read()
			}
			readStatOf = func(pid int) (proc.Stat, error) {
				return failing(func() (proc.Stat, error) { return proc.ReadStat(pid) })
			}
			statOf = func(id proc.Identity) (proc.Stat, error) { return failing(id.Stat) }
			t.Cleanup(func() { readStatOf, statOf = proc.ReadStat, proc.Identity.Stat })
			_, id, reason, gone := identify(e, fifo)
			if failures > 3 {
				want := fmt.Sprintf("pid %d: cannot be read %v after its report: %v", holder.PID, execWait, c.readErr)
				if reason != want || gone {
					t.Errorf("identify of pid %d whose reads all fail (%s mode): got reason %q, gone %v, want %q, not gone", holder.PID, proc.Mode(), reason, gone, want)
				}
				return
			}
			switch {
			case failures != 0 && !c.wantGone:
				t.Fatalf("identify of pid %d (%s mode): read %d times, want it to look again after %d failed reads", holder.PID, proc.Mode(), 3-failures, 3)
			case c.wantGone && !gone:
				t.Errorf("identify of pid %d whose read says it is gone (%s mode): got reason %q, gone %v, want gone", holder.PID, proc.Mode(), reason, gone)
			case !c.wantGone && (reason != "" || gone || id != holder):
				t.Errorf("identify of pid %d after %d reads that failed with %v (%s mode): got %v, reason %q, gone %v, want %v", holder.PID, 3, c.readErr, proc.Mode(), id, reason, gone, holder)
			}
		})
	}
}
