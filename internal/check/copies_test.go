//go:build unix

package check_test

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
)

// A count of none is a count: a runner with *os.File stdio has no copy
// goroutine, and its check counted again before the look at the proof
// (on the way to the cancel) and after the cancel, a goroutine profile
// each. Not parallel: the hook is process-wide.
func TestCopyGoroutinesCountedOncePerCheck(t *testing.T) {
	for name, stdio := range map[string]bool{"nil stdio": false, "a bytes.Buffer": true} {
		samples, restore := check.CountCopySamples()
		f := systemtest.RunFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, func(ctx context.Context) error {
				cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
				if stdio {
					cmd.Stdout = new(bytes.Buffer)
				}
				if err := cancelpolicy.Apply(cmd); err != nil {
					return err
				}
				//execcheck:ignore tests cancelpolicy.Apply on the waiting fixture, which it stops
				return cmd.Run()
			})
		})
		restore()
		f.WantVerdict(t, "pass")
		if n := samples(); n != 1 {
			t.Errorf("counts of copy goroutines in one check with %s: got %d, want 1", name, n)
		}
	}
}

func TestGoroutineCheckClaimsNothingItDidNotSee(t *testing.T) {
	// Under load the sample of copy goroutines can miss them (seen 1 in
	// 100 with -parallel 50): with a bytes.Buffer, os/exec copied through
	// a pipe all the same, and the check had that to check. Not parallel:
	// the hook is process-wide.
	defer check.MissCopyGoroutines()()
	var res exectest.Result
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, systemtest.Fixed(d.Argv()))
	})
	f.WantVerdict(t, "pass")
	if res.CopyGoroutines != 0 {
		t.Fatalf("Result.CopyGoroutines with the sample made to miss: got %d, want 0", res.CopyGoroutines)
	}
	if rep := f.Recorded(); strings.Contains(rep, "nothing to check") {
		t.Errorf("message with a bytes.Buffer and a missed sample: got%s\nwant no claim of nothing to check", rep)
	}
}

// A timed cancel comes when it was asked for: the count of copy goroutines
// (a goroutine profile, slow on a loaded machine) follows it. It came
// first, and the cancel of CancelAfter(0) waited for it. Not parallel:
// the hook is process-wide.
func TestTimedCancelDoesNotWaitForTheCount(t *testing.T) {
	const slow = 500 * time.Millisecond
	defer check.SlowCopyGoroutines(slow)()
	for name, opt := range map[string]exectest.Option{"CancelAfter(0)": exectest.CancelAfter(0), "CancelAfterRandom(0, 1ms)": exectest.CancelAfterRandom(0, time.Millisecond)} {
		var res exectest.Result
		// A fresh name: early cancels are counted by name across -count runs.
		f := systemtest.RunFakeAs(t, systemtest.FreshName(t), func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			res = exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()), opt)
		})
		f.WantVerdict(t, "pass")
		if res.CancelDelay >= slow {
			t.Errorf("cancel delay with %s and a count that takes %v: got %v, want the cancel before the count", name, slow, res.CancelDelay)
		}
	}
}
