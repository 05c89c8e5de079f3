package exectest

import (
	"context"
	"testing"

	"github.com/exectest/exectest/internal/check"
)

// A Descendant is the fixture that a cancel must stop: a command whose
// direct child leaves behind a descendant that holds the inherited stdout
// and stderr and lives 20 s (see [Lifetime]) unless killed, while the direct child
// waits for it (the shape of sh -c 'sleep 20 & wait').
//
// The code under test runs [Descendant.Argv] (or [Descendant.Script]); the
// descendant then proves it runs, in its final shape, by a report it
// writes itself (see [Descendant.WaitAlive]). Its processes are known by
// pid and start time, never by environment variables, which the code
// under test may replace. Everything it started is killed, and what it
// holds (its folder, FIFOs, cgroup, the test process's descriptors and
// goroutine on it) released, when its check ends: when [AssertCancel]
// returns, or stops the test. A Descendant never checked is released when
// the test ends.
type Descendant struct{ f *check.Fixture }

// NewDescendant prepares a fixture for one check. It starts nothing: the
// code under test runs it. A missing prerequisite (/bin/sh, /bin/sleep,
// setsid(1) for [Escaping]) skips the test, or fails it under
// EXECTEST_STRICT=1.
func NewDescendant(tb testing.TB, opts ...DescendantOption) *Descendant {
	tb.Helper()
	cfg := check.NewFixtureConfig()
	for _, o := range opts {
		if o != nil {
			o.applyDescendant(&cfg)
		}
	}
	return &Descendant{f: check.NewFixture(tb, cfg)}
}

// Argv is the command line for the code under test to run: argv[0] is an
// absolute path.
func (d *Descendant) Argv() []string { return d.f.Argv() }

// Script is the path of an executable file that does what [Descendant.Argv]
// does, for code that takes the path of a binary. It is written on the
// first call, in the fixture's folder: it is gone once the check ends.
func (d *Descendant) Script() string {
	d.f.TB().Helper()
	return d.f.Script()
}

// WaitAlive returns nil once the descendant has proved it runs in its
// final shape: it reported from its own pid, after it escaped (with
// [Escaping]) and while holding the inherited descriptors, and that pid
// and start time were found in /proc. It returns an error when a fixture
// process reports that it cannot do its part, or when ctx is done; the
// error wraps ctx.Err() then and says what was seen. Once the check has
// released the fixture, it answers at once: nil if the descendant had
// proved it runs, else an error.
func (d *Descendant) WaitAlive(ctx context.Context) error { return d.f.WaitAlive(ctx) }
