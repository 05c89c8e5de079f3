//go:build unix

package exectest_test

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
)

func TestAssertCancelAbandoningRunner(t *testing.T) {
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			var res exectest.Result
			f := runFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, sh.opts...)
				res = exectest.AssertCancel(tb, d, abandoning(d.Argv()))
			})
			f.wantVerdict(t, "fail", reachable([]string{
				"goroutines left running after run returned: got 2, want 0",
				"os/exec.(*Cmd).writerDescriptor.func1",
				"copies the command's output into a Writer",
				"runners.Abandoning.func1", // the wrapper's own Wait goroutine
				"descriptors of the test process left open",
				"fixture processes alive after run returned",
			})...)
			if res.CopyGoroutines == 0 || len(res.Goroutines) == 0 || res.LeakedGoroutines != 2 {
				t.Errorf("result: got CopyGoroutines %d, Goroutines %q, LeakedGoroutines %d, want both set and 2 leaked", res.CopyGoroutines, res.Goroutines, res.LeakedGoroutines)
			}
		})
	}
}

func TestAssertCancelUnclosedStdoutPipe(t *testing.T) {
	needSight(t, "which ends of the command's pipes the test process still holds")
	reap := make(chan *exec.Cmd, 1)
	var res exectest.Result
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, unclosedPipe(reap)(d.Argv()))
	})
	(<-reap).Wait()
	f.wantVerdict(t, "fail", "descriptors of the test process left open: got 1, want 0", "read end (the command's stdout)", "pipe:[")
	if len(res.Descriptors) != 1 || !strings.Contains(res.Descriptors[0], "read end (the command's stdout)") {
		t.Errorf("Result.Descriptors: got %q, want one line, the pipe's read end", res.Descriptors)
	}
}

func TestLeakChecksCanBeSwitchedOff(t *testing.T) {
	// Never waited for, the command leaks both os/exec's watchCtx goroutine
	// and the pipe's read end: each check catches one, and each can go.
	reap := make(chan *exec.Cmd, 2)
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, unclosedPipe(reap)(d.Argv()), exectest.WithoutDescriptorCheck())
	})
	f.wantVerdict(t, "fail", "os/exec.(*Cmd).watchCtx")
	if strings.Contains(f.report(), "descriptors") {
		t.Errorf("with WithoutDescriptorCheck: got %s, want no descriptor report", f.report())
	}
	f = runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, unclosedPipe(reap)(d.Argv()), exectest.WithoutDescriptorCheck(), exectest.WithoutGoroutineCheck())
	})
	f.wantVerdict(t, "pass")
	(<-reap).Wait()
	(<-reap).Wait()

	f = runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, abandoning(d.Argv()), exectest.WithoutGoroutineCheck())
	})
	if strings.Contains(f.report(), "goroutines left running") {
		t.Errorf("with WithoutGoroutineCheck: got %s, want no goroutine report", f.report())
	}
}

func TestGoroutineCheckSaysWhenItHadNothingToCheck(t *testing.T) {
	needSight(t, "the fixture child's stdin, stdout and stderr")
	t.Parallel()
	var res exectest.Result
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
			if err := cancelpolicy.Apply(cmd); err != nil { // nil stdio: no pipe, no copy goroutine
				return err
			}
			//execcheck:ignore tests cancelpolicy.Apply on the waiting fixture, which it stops
			return cmd.Run()
		})
	})
	f.wantVerdict(t, "pass", "goroutine check: nothing to check: the fixture child's stdin, stdout and stderr are no pipe opened during run", "fd 0 /dev/null, fd 1 /dev/null, fd 2 /dev/null")
	if res.CopyGoroutines != 0 {
		t.Errorf("Result.CopyGoroutines with nil stdio: got %d, want 0", res.CopyGoroutines)
	}
}

// A count of none is a count: a runner with *os.File stdio has no copy
// goroutine, and its check counted again before the look at the proof
// (on the way to the cancel) and after the cancel, a goroutine profile
// each. Not parallel: the hook is process-wide.
func TestCopyGoroutinesCountedOncePerCheck(t *testing.T) {
	for name, stdio := range map[string]bool{"nil stdio": false, "a bytes.Buffer": true} {
		samples, restore := exectest.CountCopySamples()
		f := runFake(t, func(tb testing.TB) {
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
		f.wantVerdict(t, "pass")
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
	defer exectest.MissCopyGoroutines()()
	var res exectest.Result
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, fixed(d.Argv()))
	})
	f.wantVerdict(t, "pass")
	if res.CopyGoroutines != 0 {
		t.Fatalf("Result.CopyGoroutines with the sample made to miss: got %d, want 0", res.CopyGoroutines)
	}
	if rep := f.report(); strings.Contains(rep, "nothing to check") {
		t.Errorf("message with a bytes.Buffer and a missed sample: got%s\nwant no claim of nothing to check", rep)
	}
}

func TestFixedRunnerPassesEveryCheck(t *testing.T) {
	t.Parallel()
	var res exectest.Result
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, fixed(d.Argv()))
	})
	f.wantVerdict(t, "pass")
	if res.CopyGoroutines == 0 {
		t.Errorf("Result.CopyGoroutines with a bytes.Buffer: got 0, want the copy goroutine seen")
	}
}

func TestLeakAttributionUnderParallel(t *testing.T) {
	// Each subtest's verdict is its own, whatever runs beside it.
	for i := range 6 {
		r, want := runner(fixed), "pass"
		if i%2 == 1 {
			r, want = abandoning, "fail"
		}
		t.Run(want+itoa(i), func(t *testing.T) {
			t.Parallel()
			f := runFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, r(d.Argv()))
			})
			f.wantVerdict(t, want)
		})
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

// A timed cancel comes when it was asked for: the count of copy goroutines
// (a goroutine profile, slow on a loaded machine) follows it. It came
// first, and the cancel of CancelAfter(0) waited for it. Not parallel:
// the hook is process-wide.
func TestTimedCancelDoesNotWaitForTheCount(t *testing.T) {
	const slow = 500 * time.Millisecond
	defer exectest.SlowCopyGoroutines(slow)()
	for name, opt := range map[string]exectest.Option{"CancelAfter(0)": exectest.CancelAfter(0), "CancelAfterRandom(0, 1ms)": exectest.CancelAfterRandom(0, time.Millisecond)} {
		var res exectest.Result
		// A fresh name: early cancels are counted by name across -count runs.
		f := runFakeAs(t, freshName(t), func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			res = exectest.AssertCancel(tb, d, policy(d.Argv()), opt)
		})
		f.wantVerdict(t, "pass")
		if res.CancelDelay >= slow {
			t.Errorf("cancel delay with %s and a count that takes %v: got %v, want the cancel before the count", name, slow, res.CancelDelay)
		}
	}
}
