package exectest

import (
	"time"

	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/proctest"
)

// Result is what [AssertCancel] saw. The check has already reported any
// failure through the testing.TB; Result is for tests that want more.
type Result struct {
	// Failed says the check failed: it reported each failure through the
	// testing.TB. (A check that skips, or fails at once on bad input,
	// never returns.)
	Failed bool
	// Elapsed is the time from the cancel to run's return. For a hung run
	// it includes the bound and the time run took after the kill.
	Elapsed time.Duration
	// Err is what run returned (nil if it panicked or never returned).
	Err error
	// CancelDelay is the time from run's start to the cancel.
	CancelDelay time.Duration
	// Proved says the descendant proved it runs before the cancel. It is
	// false only with CancelAfter or CancelAfterRandom, when the cancel
	// won the race with the fixture's start-up.
	Proved bool
	// DescendantPID is the descendant's pid in the test's PID namespace
	// once it proved it runs (by the time run returned), else 0.
	DescendantPID int
	// Early says run returned before the cancel.
	Early bool
	// Hung says run did not return within the bound.
	Hung bool
	// Holders are the processes that held the command's output at the
	// bound: the fixture's, and any other (see their Role).
	Holders []proctest.Process
	// Survivors are the fixture processes alive after run returned.
	Survivors []proctest.Process
	// OrphanedInits are the inits of the PID namespaces that Holders or
	// Survivors live in, where such an init outlived the process that
	// started it (adopted, not started by the test process): why a
	// sandbox meant to die with its maker kept them running. Its
	// parent-death signal was armed too late or not at all; bwrap arms
	// --die-with-parent only once the command runs
	// (containers/bubblewrap#633), so a check that cancels sooner can
	// find one now and then.
	OrphanedInits []proctest.Process
	// Tracker says how the fixture's processes were followed: a cgroup
	// v2, the test process as child subreaper, or the fixture's own
	// reports. A command that the code under test started in a cgroup of
	// its own is left there, and followed without one.
	Tracker string
	// CopyGoroutines is how many os/exec copy goroutines (a pipe between a
	// non-*os.File Reader or Writer and the command) were seen around the
	// cancel: once the descendant reported alive, for a check that cancels
	// at the proof (the default); else once the fixture child started, or
	// right after the cancel where that came first. It is a sample: on a
	// loaded machine it can miss goroutines that had not run yet, so 0
	// alone proves nothing.
	CopyGoroutines int
	// Goroutines are the goroutines run started, directly or through
	// os/exec, still running after run returned: one text per group of
	// identical goroutines; LeakedGoroutines counts them one by one.
	Goroutines       []string
	LeakedGoroutines int
	// Descriptors are the test process's descriptors on the command's
	// pipes still open after run returned, one line each: "fd 7:
	// pipe:[1234], read end (the command's stdout)".
	Descriptors []string
	// Panic is the value run panicked with, if it did.
	Panic any
	// Returned is false if run never returned, even after the fixture's
	// processes were killed: its goroutine is leaked.
	Returned bool
}

// resultOf is the engine's outcome as the API says it.
func resultOf(o check.Outcome) Result { return Result(o) }
