package exectest

import (
	"context"
	"testing"

	"github.com/exectest/exectest/internal/check"
)

// A GoroutineScope marks the goroutines that one piece of code starts, and
// the goroutines those start (os/exec's among them), with a pprof label of
// its own. Its check sees those goroutines and no others, so it is exact
// under t.Parallel, where a process-wide check such as goleak's blames
// one test for another's goroutines.
//
//	g := exectest.NewGoroutineScope()
//	g.Do(ctx, func(ctx context.Context) { runner.Run(ctx, argv) })
//	g.VerifyNone(t)
type GoroutineScope struct {
	s *check.Scope // the first field: internal/check's tests find it there
}

// NewGoroutineScope makes a scope with a label no other scope has.
func NewGoroutineScope() *GoroutineScope { return &GoroutineScope{s: check.NewScope()} }

// Do runs fn on the calling goroutine with the scope's label: every
// goroutine started while it runs carries the label.
func (s *GoroutineScope) Do(ctx context.Context, fn func(ctx context.Context)) { s.s.Do(ctx, fn) }

// Find returns an error naming the scope's goroutines still running
// after up to 1s, looking again with a
// capped backoff; nil once none is left.
func (s *GoroutineScope) Find() error { return s.s.Find() }

// VerifyNone fails tb if [GoroutineScope.Find] finds goroutines.
func (s *GoroutineScope) VerifyNone(tb testing.TB) {
	tb.Helper()
	if err := s.Find(); err != nil {
		tb.Errorf("%v", err)
	}
}

// A DescriptorSnapshot is the test process's open descriptors at one
// moment. Its check finds descriptors opened since and still open: above
// all the pipe of a StdoutPipe that is never closed.
//
// The test process's descriptors are shared by every test in it: under
// t.Parallel another test's open pipe is found too. [AssertCancel] checks
// exactly the command's own pipes instead, and is exact under t.Parallel.
type DescriptorSnapshot struct{ s *check.DescriptorSnapshot }

// SnapshotDescriptors records the test process's open descriptors.
func SnapshotDescriptors() *DescriptorSnapshot {
	return &DescriptorSnapshot{s: check.SnapshotDescriptors()}
}

// Find returns an error naming the descriptors opened since the snapshot
// that are still open after up to 1s of looking again, or nil.
func (s *DescriptorSnapshot) Find() error { return s.s.Find() }

// VerifyNone fails tb if [DescriptorSnapshot.Find] finds descriptors.
func (s *DescriptorSnapshot) VerifyNone(tb testing.TB) {
	tb.Helper()
	if err := s.Find(); err != nil {
		tb.Errorf("%v", err)
	}
}
