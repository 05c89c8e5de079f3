package exectest

import (
	"fmt"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
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

// result is what the check saw, as its Result says it.
func (c *check) result() Result {
	r := Result{
		Failed:         c.failed,
		Elapsed:        c.elapsed,
		Err:            c.out.err,
		CancelDelay:    c.cancelDelay,
		Proved:         c.proved,
		DescendantPID:  c.descendantPID,
		Early:          c.early,
		Hung:           c.hung,
		Holders:        processes(c.holders),
		Survivors:      processes(c.survivors),
		OrphanedInits:  processes(c.orphanedInits),
		Tracker:        c.d.tracking(), // as the fixture child's cgroup made it
		CopyGoroutines: c.copyGoroutines,
		Descriptors:    c.fds,
		Panic:          c.out.panic,
		Returned:       c.returned,
	}
	for _, g := range c.leaked {
		r.Goroutines = append(r.Goroutines, g.String())
		r.LeakedGoroutines += g.Count
	}
	return r
}

// passLine is what a pass says it proved, in one line (logged: go test
// -v shows it): how soon run returned after the cancel, that nothing
// survived or leaked, and when the descendant proved it runs; or that the
// cancel came before that, in the start-up.
func (c *check) passLine(snap monitor.Snapshot) string {
	var b strings.Builder
	b.WriteString("exectest: pass: ")
	if c.early {
		fmt.Fprintf(&b, "run returned before the cancel, %v after start", short(c.cancelDelay))
	} else {
		fmt.Fprintf(&b, "cancel→return %v (bound %v)", short(c.elapsed), c.cfg.bound)
	}
	b.WriteString(", 0 survivors")
	switch {
	case c.cfg.noGoroutines:
		b.WriteString(", goroutines not checked (WithoutGoroutineCheck)")
	case c.nothingToCheck != "":
		fmt.Fprintf(&b, ", 0 leaked goroutines (%s)", c.nothingToCheck)
	default:
		b.WriteString(", 0 leaked goroutines")
	}
	switch {
	case c.cfg.noFDs:
		b.WriteString(", pipe ends not checked (WithoutDescriptorCheck)")
	case !proc.Portable():
		b.WriteString(", 0 pipe ends left open")
	}
	switch p := snap.Proof; {
	case c.proved && c.cfg.mode == cancelWhenAlive:
		fmt.Fprintf(&b, ", proved %v after start", short(p.At.Sub(c.start)))
	case c.proved:
		fmt.Fprintf(&b, ", proved %v after start, cancelled %v after start", short(p.At.Sub(c.start)), short(c.cancelDelay))
	case c.raced != "":
		fmt.Fprintf(&b, ", cancelled %v after start, before the descendant proved it runs (%s)", short(c.cancelDelay), c.raced)
	case p != nil:
		fmt.Fprintf(&b, ", cancelled %v after start, proved %v after start (after the cancel)", short(c.cancelDelay), short(p.At.Sub(c.start)))
	}
	if p := portableLine(); p != "" {
		fmt.Fprintf(&b, "; in the %s", p)
	}
	return b.String()
}
