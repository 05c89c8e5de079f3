package exectest

import (
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/proctest"
)

// Result is what [AssertCancel] saw. The check has already reported any
// failure through the testing.TB; Result is for tests that want more.
type Result struct {
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
	// Descendant is the descendant's identity, once it proved it runs.
	Descendant proc.Identity
	// Early says run returned before the cancel.
	Early bool
	// Hung says run did not return within the bound.
	Hung bool
	// Holders are the fixture processes that were alive at the bound,
	// holding the command's output.
	Holders []proctest.Process
	// Survivors are the fixture processes alive after run returned.
	Survivors []proctest.Process
	// Tracker says how the fixture's processes were followed (see
	// [proc.Tracker]): a command that the code under test started in
	// a cgroup of its own is left there, and followed without one.
	Tracker string
	// CopyGoroutines is how many os/exec copy goroutines (a pipe between a
	// non-*os.File Reader or Writer and the command) were seen when the
	// cancel came. It is a sample: on a loaded machine it can miss
	// goroutines that had not run yet, so 0 alone proves nothing.
	CopyGoroutines int
	// Goroutines are the goroutines run started, directly or through
	// os/exec, still running after run returned: one text per group of
	// identical goroutines; LeakedGoroutines counts them one by one.
	Goroutines       []string
	LeakedGoroutines int
	// Descriptors are the test process's descriptors on the command's
	// pipes still open after run returned.
	Descriptors []proc.FD
	// Panic is the value run panicked with, if it did.
	Panic any
	// Returned is false if run never returned, even after the fixture's
	// processes were killed: its goroutine is leaked.
	Returned bool
}

// passed reports whether the check found nothing wrong.
func (r Result) passed() bool {
	return r.Returned && !r.Hung && len(r.Survivors) == 0 && r.Panic == nil &&
		len(r.Goroutines) == 0 && len(r.Descriptors) == 0
}
