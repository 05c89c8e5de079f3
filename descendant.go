package exectest

import (
	"context"
	"testing"

	"github.com/exectest/exectest/internal/check"
)

// A Descendant is the fixture a cancel must stop: a command whose direct
// child leaves a descendant holding the inherited stdout and stderr for
// 20s ([Lifetime]) unless killed, while the child waits for it (sh -c
// 'sleep 20 & wait'). The code under test runs [Descendant.Argv] (or
// [Descendant.Script]); the descendant proves it runs by a report of its
// own. Its processes, known by pid and start time, are killed and all it
// holds released when its check ends, or its test if it is never checked.
type Descendant struct {
	f *check.Fixture // the first field: internal/check's tests find it there
}

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
// first call, in the fixture's folder: it is gone once the check ends. On
// Windows it is a .cmd file: the command's direct child is then cmd.exe,
// which runs the fixture.
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
