package exectest

import (
	"context"
	"testing"

	"github.com/exectest/exectest/internal/check"
)

// AssertCancel checks that cancelling run's context really stops the
// command that run started from d: run returns within the bound ([Within],
// 1s), and leaves no fixture process alive, no goroutine of its own and no
// end of the command's pipes open. run starts d.Argv() under ctx, as the
// code under test does; ctx is cancelled once the descendant has proved it
// runs. A check that proves nothing skips with the reason, or fails under
// EXECTEST_STRICT=1. d serves this one check: all it holds is released
// when AssertCancel returns. docs/how-it-works.md tells each step.
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
