//go:build unix

package exectest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/examples/runners"
	"github.com/exectest/exectest/recorder"
)

// durations and pids vary from run to run; the printing t masks them.
var volatile = regexp.MustCompile(`\d+(\.\d+)?(ns|µs|ms|s)\b|pid \d+|pipe:\[\d+\]`)

// printTest runs fn as a test on a recorder and prints how it ended and
// the first line of each message, as a reader of the test's output sees
// them. It stands in for the *testing.T of a real test.
func printTest(fn func(t testing.TB)) {
	rec := recorder.Run(nil, "example", fn)
	fmt.Println(strings.ToUpper(rec.Verdict()))
	for _, m := range append(rec.Errors(), rec.Skips()...) {
		first, _, _ := strings.Cut(m, "\n")
		fmt.Println(volatile.ReplaceAllStringFunc(first, func(s string) string {
			switch {
			case strings.HasPrefix(s, "pid"):
				return "pid N"
			case strings.HasPrefix(s, "pipe"):
				return "pipe:[N]"
			}
			return "D"
		}))
	}
}

// The test of a runner, before and after the fix: exec.CommandContext's
// own Cancel kills the direct child only, the descendant holds the output
// pipe, and Wait waits for it; cancelpolicy.Run kills the whole group.
func Example() {
	for _, fix := range []bool{false, true} {
		fmt.Println(map[bool]string{false: "default Cancel:", true: "cancelpolicy.Run:"}[fix])
		printTest(func(t testing.TB) {
			d := exectest.NewDescendant(t)
			exectest.AssertCancel(t, d, func(ctx context.Context) error {
				cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
				cmd.Stdout = new(strings.Builder) // a pipe, as in most runners
				if fix {
					return cancelpolicy.Run(ctx, cmd)
				}
				//execcheck:ignore the example shows the broken runner; the fixed one is cancelpolicy.Run above
				return cmd.Run()
			}, exectest.Within(500*time.Millisecond))
		})
	}
	// Output:
	// default Cancel:
	// FAIL
	// exectest: run did not return within the bound after cancel: got still running after D, want return within D
	// cancelpolicy.Run:
	// PASS
}

// The test of a runner that stops the whole tree.
func ExampleAssertCancel() {
	printTest(func(t testing.TB) {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
			cmd.Stdout = new(strings.Builder)
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			//execcheck:ignore the example shows cancelpolicy.Apply on the waiting fixture, which it stops
			return cmd.Run()
		})
	})
	// Output:
	// PASS
}

// WaitDelay alone returns in time, and leaves the descendant running.
func ExampleAssertCancel_waitDelayOnly() {
	printTest(func(t testing.TB) {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			return runners.WaitDelayOnly(ctx, d.Argv())
		})
	})
	// Output:
	// FAIL
	// exectest: fixture processes alive after run returned: got 1, want 0 (run returned D after cancel, err = signal: killed)
}

// A wrapper that gives up on the command instead of waiting for it leaks
// goroutines, the pipe and the descendant.
func ExampleAssertCancel_abandoning() {
	printTest(func(t testing.TB) {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			return runners.Abandoning(ctx, d.Argv())
		})
	})
	// Output:
	// FAIL
	// exectest: goroutines left running after run returned: got 2, want 0 (looked for D)
	// exectest: fixture processes alive after run returned: got 1, want 0 (run returned D after cancel, err = context canceled)
}

// A runner that never runs the command proves nothing: the check skips
// instead of passing (and fails under EXECTEST_STRICT=1).
func ExampleAssertCancel_vacuous() {
	printTest(func(t testing.TB) {
		t.Setenv("EXECTEST_STRICT", "0")
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error { return nil })
	})
	// Output:
	// SKIP
	// exectest: the descendant never proved it runs, so the check would pass vacuously
}

// A check of goroutines for code that does not use the fixture.
func ExampleGoroutineScope() {
	printTest(func(t testing.TB) {
		release := make(chan struct{})
		defer close(release)
		g := exectest.NewGoroutineScope()
		g.Do(context.Background(), func(context.Context) {
			go func() { <-release }() // outlives the function
		})
		g.VerifyNone(t)
	})
	// Output:
	// FAIL
	// exectest: goroutines left running after the scope's function returned: got 1, want 0 (looked for D)
}

// A descendant that escapes into a session of its own, as daemons do, is
// out of reach of a process-group kill: against cancelpolicy.Apply, the
// check fails as a hang (its WaitDelay is past the bound) naming the
// escapee.
func ExampleEscaping() {
	printTest(func(t testing.TB) {
		d := exectest.NewDescendant(t, exectest.Escaping())
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			return runners.Policy(ctx, d.Argv())
		}, exectest.Within(300*time.Millisecond))
	})
	// Output:
	// FAIL
	// exectest: run did not return within the bound after cancel: got still running after D, want return within D
}

// For code that runs the path of a binary rather than a command line.
func ExampleDescendant_Script() {
	printTest(func(t testing.TB) {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, d.Script())
			cmd.Stdout = new(strings.Builder)
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			//execcheck:ignore the example shows cancelpolicy.Apply on the waiting fixture, which it stops
			return cmd.Run()
		})
	})
	// Output:
	// PASS
}

// A cancel at a random moment of the fixture's start-up, to hunt races
// with go test -count=N: a correct runner passes whether the cancel comes
// before or after the descendant proved it runs.
func ExampleCancelAfterRandom() {
	printTest(func(t testing.TB) {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			return runners.Policy(ctx, d.Argv())
		}, exectest.CancelAfterRandom(0, 20*time.Millisecond))
	})
	// Output:
	// PASS
}

// A check of descriptors for code that does not use the fixture: a pipe
// opened and never closed.
func ExampleDescriptorSnapshot() {
	printTest(func(t testing.TB) {
		fds := exectest.SnapshotDescriptors()
		r, w, _ := os.Pipe() // and never closed, until after the check
		defer r.Close()
		defer w.Close()
		fds.VerifyNone(t)
	})
	// Output:
	// FAIL
	// exectest: descriptors of the test process left open: got 2, want 0
}
