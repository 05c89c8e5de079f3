package exectest_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/exectest/exectest"
)

// heldSlack is how much more than after its first check a test may hold
// after its last: a goroutine or descriptor of the runtime's own that
// starts meanwhile, a zombie of an earlier test's that dies meanwhile.
// What one fixture holds until the test ends is more (a check left 4
// descriptors, a zombie and a goroutine each), so that the checks below
// fail by 2*heldSlack at their last check.
const heldSlack = 3

// holdChecks is how many checks TestChecksInOneTestHoldNoMore runs.
const holdChecks = 12

// Checks in a loop in one test hold no more after the last than after the
// first: each check releases what its fixture held (its FIFOs and the
// monitor's descriptors and goroutine on them, pidfds, the tracker's
// cgroup, its folder, the orphans it must reap) when it ends, not when
// the test does. Before, 420 checks in one test held 1,270 descriptors,
// 420 zombie children and 424 goroutines until the test ended.
func TestChecksInOneTestHoldNoMore(t *testing.T) {
	t.Run("this_user", func(t *testing.T) {
		var first held
		for i := 1; i <= holdChecks; i++ {
			d := exectest.NewDescendant(t)
			if r := exectest.AssertCancel(t, d, policy(d.Argv())); r.Failed {
				t.Fatalf("check %d: got %+v, want passed", i, r)
			}
			if d.Watched() {
				t.Errorf("check %d: watchdog still to clean up %s after its check: got watched, want released", i, d.Dir())
			}
			if _, err := os.Stat(d.Dir()); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("check %d: fixture folder %s after its check: got %v, want it removed", i, d.Dir(), err)
			}
			now := heldNow()
			if i == 1 {
				first = now
				continue
			}
			if i < holdChecks {
				continue
			}
			for _, c := range []struct {
				what        string
				first, last int
			}{
				{"open descriptors", first.fds, now.fds},
				{"zombie children", first.zombies, now.zombies},
				{"goroutines", first.goroutines, now.goroutines},
			} {
				if c.last > c.first+heldSlack {
					t.Errorf("%s after check %d in one test: got %d, want at most %d (%d after check 1, plus %d)", c.what, i, c.last, c.first+heldSlack, c.first, heldSlack)
				}
			}
		}
	})
	t.Run("nobody", func(t *testing.T) {
		runAsNobody(t, "^TestChecksInOneTestHoldNoMore$/^this_user$")
	})
}

// A check that proves nothing (it skips, or fails under EXECTEST_STRICT=1)
// releases its fixture too, as it ends: before the test's cleanups, which
// a test that loops over checks reaches only at its end.
func TestVacuousCheckReleasesItsFixture(t *testing.T) {
	var (
		dir     string
		watched bool
		dirErr  error
		alive   error
		took    time.Duration
	)
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		// Registered after NewDescendant's own: runs before it, right
		// after the check stopped the fake test.
		tb.Cleanup(func() {
			dir, watched = d.Dir(), d.Watched()
			_, dirErr = os.Stat(dir)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			alive = d.WaitAlive(ctx)
			took = time.Since(start)
		})
		exectest.AssertCancel(tb, d, func(context.Context) error { return nil }) // never starts the command
	})
	want := "skip"
	if strictMode() {
		want = "fail"
	}
	f.wantVerdict(t, want)
	if watched {
		t.Errorf("watchdog after the vacuous check: got still to clean up %s, want the fixture released", dir)
	}
	if !errors.Is(dirErr, os.ErrNotExist) {
		t.Errorf("fixture folder %s after the vacuous check: got %v, want it removed", dir, dirErr)
	}
	if alive == nil || errors.Is(alive, context.DeadlineExceeded) {
		t.Errorf("WaitAlive after the vacuous check: got %v after %v, want at once an error that the fixture was released", alive, took.Round(time.Millisecond))
	}
}
