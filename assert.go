package exectest

import (
	"context"
	"testing"

	"github.com/exectest/exectest/internal/check"
)

// AssertCancel checks that cancelling run's context really stops the
// command run started from d: run returns within the bound (see [Within])
// and no process of the fixture survives.
//
// run must start d.Argv() (or d.Script()) under ctx and return when the
// command is done, as the code under test does. AssertCancel calls it in
// a goroutine and cancels ctx as soon as the descendant has proved it
// runs (or as [CancelAfter] and [CancelAfterRandom] say). Past the bound
// it reports which processes held the command's output, kills the
// fixture's processes (those only) so that run returns, and fails.
// After run returns, each of these is a failure: a goroutine that run
// started, directly or through os/exec, still running; an end of the
// command's pipes still open in the test process (see
// [WithoutGoroutineCheck], [WithoutDescriptorCheck]); a fixture process
// still alive (zombies count as dead). The leaks are looked for first,
// since killing a survivor closes the pipe and hides them.
//
// When the descendant never proves it runs (run never ran the command,
// the command could not start, /bin/sleep or /proc is missing where it
// ran), the check would pass vacuously: it skips, with the reason, or
// fails under EXECTEST_STRICT=1.
//
// A Descendant serves one check: when AssertCancel returns (or skips, or
// stops the test), the fixture's processes are killed and what it holds is
// released, its folder and [Descendant.Script] included.
func AssertCancel(tb testing.TB, d *Descendant, run func(ctx context.Context) error, opts ...Option) Result {
	tb.Helper()
	switch {
	case d == nil:
		tb.Fatalf("exectest.AssertCancel: descendant: got nil, want one from exectest.NewDescendant(t)")
	case run == nil:
		tb.Fatalf("exectest.AssertCancel: run: got nil, want a func(ctx) error that runs d.Argv() under ctx")
	}
	cfg := check.NewConfig()
	for _, o := range opts {
		if o != nil {
			o.applyAssert(&cfg)
		}
	}
	return resultOf(check.Run(tb, d.f, run, cfg))
}
