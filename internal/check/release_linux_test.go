package check_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
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
			if r := exectest.AssertCancel(t, d, systemtest.Policy(d.Argv())); r.Failed {
				t.Fatalf("check %d: got %+v, want passed", i, r)
			}
			if check.FixtureOf(d).Watched() {
				t.Errorf("check %d: watchdog still to clean up %s after its check: got watched, want released", i, check.FixtureOf(d).Dir())
			}
			if _, err := os.Stat(check.FixtureOf(d).Dir()); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("check %d: fixture folder %s after its check: got %v, want it removed", i, check.FixtureOf(d).Dir(), err)
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
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		// Registered after NewDescendant's own: runs before it, right
		// after the check stopped the fake test.
		tb.Cleanup(func() {
			dir, watched = check.FixtureOf(d).Dir(), check.FixtureOf(d).Watched()
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
	f.WantVerdict(t, want)
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

// pendingChecks is how many checks TestChecksInOneTestLeaveNoCleanupEach
// runs.
const pendingChecks = 5

// Checks in a loop in one test leave nothing each in the test's list of
// cleanups, which testing keeps until the test ends (each with its
// caller's stack, about 400 bytes): the test has one cleanup, for the
// fixtures no check released, and each check takes its own fixture out of
// it. Fixtures never checked are still released when the test ends,
// whatever their number. Before, each fixture registered a cleanup of its
// own: 1,000 checks left 1,000.
func TestChecksInOneTestLeaveNoCleanupEach(t *testing.T) {
	var (
		cleanups  []int // the fake test's cleanups after each check
		left      []int // its fixtures waiting for its end after each check
		unchecked []*exectest.Descendant
		waiting   int // of them, waiting for the test's end before it ends
		checkErr  string
	)
	f := systemtest.RunFake(t, func(tb testing.TB) {
		rec := tb.(interface{ PendingCleanups() int })
		for i := 1; i <= pendingChecks; i++ {
			d := exectest.NewDescendant(tb)
			if r := exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv())); r.Failed {
				checkErr = fmt.Sprintf("check %d: got %+v, want passed", i, r)
				return
			}
			n, _ := check.PendingFixtures(tb)
			cleanups, left = append(cleanups, rec.PendingCleanups()), append(left, n)
		}
		// Never checked: the test's end releases them.
		unchecked = append(unchecked, exectest.NewDescendant(tb), exectest.NewDescendant(tb))
		waiting, _ = check.PendingFixtures(tb)
	})
	if checkErr != "" {
		t.Fatalf("%s; recorded:%s", checkErr, f.Recorded())
	}
	f.WantVerdict(t, "pass")
	for i := range cleanups {
		if cleanups[i] != cleanups[0] || left[i] != 0 {
			t.Errorf("after check %d in one test: got %d cleanups registered and %d fixtures waiting for its end, want %d (as after check 1) and 0", i+1, cleanups[i], left[i], cleanups[0])
		}
	}
	if waiting != len(unchecked) {
		t.Errorf("fixtures waiting for the test's end before it ends: got %d, want the %d never checked", waiting, len(unchecked))
	}
	if n, registered := check.PendingFixtures(f); n != 0 || registered {
		t.Errorf("after the test: got %d fixtures waiting (its cleanup still registered: %v), want 0 and the test forgotten", n, registered)
	}
	for _, d := range unchecked {
		if check.FixtureOf(d).Watched() {
			t.Errorf("watchdog after the test: got still to clean up %s, never checked, want it released by the test's end", check.FixtureOf(d).Dir())
		}
		if _, err := os.Stat(check.FixtureOf(d).Dir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("fixture folder %s, never checked, after the test: got %v, want it removed", check.FixtureOf(d).Dir(), err)
		}
	}
}

// uncomparableTB is a testing.TB that cannot be a map key.
type uncomparableTB struct {
	testing.TB
	_ []int
}

// A testing.TB that cannot be a map key (a struct value holding a slice)
// still gets its fixtures released: the checked one by its check, the one
// never checked when the test ends; and neither panics.
func TestFixturesOfAnUncomparableTB(t *testing.T) {
	var checked, unchecked *exectest.Descendant
	f := systemtest.RunFake(t, func(tb testing.TB) {
		tb = uncomparableTB{TB: tb}
		checked = exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, checked, systemtest.Policy(checked.Argv()))
		unchecked = exectest.NewDescendant(tb)
	})
	f.WantVerdict(t, "pass")
	for _, d := range []*exectest.Descendant{checked, unchecked} {
		if d == nil {
			t.Fatalf("fixture: got none; recorded:%s", f.Recorded())
		}
		if _, err := os.Stat(check.FixtureOf(d).Dir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("fixture folder %s after the test: got %v, want it removed", check.FixtureOf(d).Dir(), err)
		}
	}
}
