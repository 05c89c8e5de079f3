package exectest_test

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/systemtest"
)

// runner is a runner of these tests, on Windows: the bug (a buffer and
// the default Cancel), the half-fix (a WaitDelay), and the fix line's
// change applied to either, exactly: cancelpolicy.Run(ctx, cmd) in place
// of cmd.Run().
func runner(waitDelay time.Duration, fixed bool) func(*exectest.Descendant) func(context.Context) error {
	return func(d *exectest.Descendant) func(context.Context) error {
		return func(ctx context.Context) error {
			var out bytes.Buffer
			cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
			cmd.Stdout = &out
			cmd.WaitDelay = waitDelay
			if fixed {
				return cancelpolicy.Run(ctx, cmd)
			}
			//execcheck:ignore the broken runners AssertCancel must fail on Windows: the default Cancel, and WaitDelay alone, on purpose
			return cmd.Run()
		}
	}
}

var (
	runDefault        = runner(0, false)
	runWaitDelay      = runner(100*time.Millisecond, false)
	runFixed          = runner(0, true)
	runFixedWaitDelay = runner(100*time.Millisecond, true)
)

// The fix lines on Windows (see internal/check/fix_windows.go).
const (
	wantJobFix      = "fix: start the command suspended in a Job Object of its own"
	wantLauncherFix = "it puts the tree in a Job Object and terminates the job also after the child exited"
)

// On Windows the fixture is the test binary: a runner with the default
// Cancel hangs to the bound on the descendant holding its output pipe,
// one with WaitDelay returns and leaves it running; each failure names
// the descendant and the Job Object fix, and that change, applied,
// passes. So for the launcher, whose child exits at once.
func TestAssertCancelOnWindows(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     []exectest.DescendantOption
		broken   func(*exectest.Descendant) func(context.Context) error
		fixed    func(*exectest.Descendant) func(context.Context) error
		wantText []string
	}{
		{"default Cancel", nil, runDefault, runFixed,
			[]string{"did not return within the bound", "(descendant)", "-exectest.fixture=descendant", wantJobFix}},
		{"WaitDelay", nil, runWaitDelay, runFixedWaitDelay,
			[]string{"fixture processes alive after run returned: got 1, want 0", "(descendant)", wantJobFix}},
		{"launcher", []exectest.DescendantOption{exectest.Launcher()}, runDefault, runFixed,
			[]string{"did not return within the bound", "(descendant, orphaned: its launcher exited)", wantLauncherFix}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			broken := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, tc.opts...)
				exectest.AssertCancel(tb, d, tc.broken(d), exectest.ProofTimeout(30*time.Second))
			})
			broken.WantVerdict(t, "fail", tc.wantText...)
			fixed := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, tc.opts...)
				exectest.AssertCancel(tb, d, tc.fixed(d), exectest.ProofTimeout(30*time.Second))
			})
			fixed.WantVerdict(t, "pass")
		})
	}
}

// A table of fixed runners, cancelled at random moments, passes: before
// the proof of life as well as after it.
func TestCancelAfterRandomOnWindows(t *testing.T) {
	for _, shape := range []struct {
		name string
		opts []exectest.DescendantOption
	}{{"waiting", nil}, {"launcher", []exectest.DescendantOption{exectest.Launcher()}}} {
		t.Run(shape.name, func(t *testing.T) {
			t.Parallel()
			for range 3 {
				d := exectest.NewDescendant(t, shape.opts...)
				exectest.AssertCancel(t, d, runFixed(d), exectest.CancelAfterRandom(0, time.Second), exectest.ProofTimeout(30*time.Second))
			}
		})
	}
}

// What cannot run on Windows says why, and never passes: a shape that
// needs sessions, groups or signal dispositions, and a runner that never
// starts the command; each a failure under EXECTEST_STRICT=1.
func TestSkipsOnWindowsSayWhy(t *testing.T) {
	for strict, want := range map[string]string{"0": "skip", "1": "fail"} {
		t.Setenv("EXECTEST_STRICT", strict)
		for name, opt := range map[string]exectest.DescendantOption{"Escaping": exectest.Escaping(), "JobControl": exectest.JobControl(),
			"DoubleFork": exectest.DoubleFork(), "IgnoresTerm": exectest.IgnoresTerm()} {
			f := systemtest.RunFake(t, func(tb testing.TB) { exectest.NewDescendant(tb, opt) })
			f.WantVerdict(t, want, "exectest."+name+"(): no such shape on Windows")
		}
		f := systemtest.RunFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }, exectest.ProofTimeout(time.Second))
		})
		f.WantVerdict(t, want, "the descendant never proved it runs", "fix: run must start d.Argv()")
	}
}

// Script on Windows is a .cmd file, which os/exec runs through cmd.exe:
// the default Cancel ends cmd.exe alone and the fixture outlives it;
// cancelpolicy.Run ends the whole tree.
func TestScriptOnWindows(t *testing.T) {
	run := func(fixed bool) func(tb testing.TB) {
		return func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, func(ctx context.Context) error {
				var out bytes.Buffer
				cmd := exec.CommandContext(ctx, d.Script())
				cmd.Stdout = &out
				cmd.WaitDelay = 100 * time.Millisecond
				if fixed {
					return cancelpolicy.Run(ctx, cmd)
				}
				//execcheck:ignore the broken runner AssertCancel must fail on Windows: WaitDelay alone, on purpose
				return cmd.Run()
			}, exectest.ProofTimeout(30*time.Second))
		}
	}
	systemtest.RunFake(t, run(false)).WantVerdict(t, "fail", "alive after run returned", wantJobFix)
	systemtest.RunFake(t, run(true)).WantVerdict(t, "pass")
}
