package check

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/procstate"
)

// endWait bounds how long a passing check waits to learn how the
// descendant ended: it is dead by then, and its end is known as soon as
// its parent (or the test process, for an orphan) has it as a zombie.
const endWait = 250 * time.Millisecond

// judgeProved decides about a check that would pass although the
// descendant had proved it runs: the pass is vacuous if the descendant
// was no longer what it proved to be at the cancel, or if it ended on its
// own rather than by the cancel (a /bin/sleep that exits at once, a
// script in its place, a lifetime shorter than the check). Then nothing
// was stopped, and nothing was tested.
func (c *check) judgeProved(snap monitor.Snapshot) {
	c.tb.Helper()
	p := snap.Proof
	what := fmt.Sprintf("the descendant (pid %d, %s)", p.ID.PID, p.Comm)
	if c.lapse != "" {
		skipVacuous(c.tb, "exectest: %s no longer held its proof of life at the cancel, so the check would pass vacuously: %s\n"+
			"fix: make the descendant live where the command runs: /bin/sleep must be a working sleep there (not another program, not missing its libraries)\nthe fixture: %s",
			what, c.lapse, snap)
	}
	var end procstate.End
	ok := settling.Poll(endWait, func() bool {
		var known bool
		if end, known = p.Watch.End(); !known {
			// The fixture child, alive to see it, reports its exit.
			end, known = endReported(c.d.mon.ReportedExit())
		}
		return known
	})
	if ok && end.OnItsOwn() {
		skipVacuous(c.tb, "exectest: %s ended on its own (%v), not by the cancel, so the check would pass vacuously (%s)\n"+
			"fix: where the command runs, /bin/sleep must sleep for its whole lifetime (%v): it is another program there, or it cannot run\nthe fixture: %s",
			what, end, c.returnedWhen(), c.d.spec.Lifetime, snap)
	}
}

// lifetimeMargin is how much longer than the cancel window plus the bound
// the descendant must live at least: past the bound, the check still
// looks for survivors, and a descendant that ends on its own by then lets
// a hung run pass.
func lifetimeMargin(bound time.Duration) time.Duration { return max(bound, killGrace) }

// lifetimeError says what is wrong when the descendant's lifetime does
// not outlast the check, or "".
func lifetimeError(lifetime time.Duration, cfg Config) string {
	window := time.Duration(0)
	switch cfg.Mode {
	case CancelAfter:
		window = cfg.Delay
	case CancelAfterRandom:
		window = cfg.UpTo
	}
	need := window + cfg.Bound + lifetimeMargin(cfg.Bound)
	if lifetime >= need {
		return ""
	}
	return fmt.Sprintf("exectest.AssertCancel: the descendant's lifetime: got %v, want at least %v (the cancel delay %v + the bound %v + %v), or a hung run passes when the descendant ends on its own\n"+
		"fix: exectest.NewDescendant(t, exectest.Lifetime(%s)), or a shorter exectest.Within",
		lifetime, need, window, cfg.Bound, lifetimeMargin(cfg.Bound), goDuration(need))
}

// endReported reads the descendant's end from the status its parent, the
// fixture child, reported seeing ("exit STATUS"): the shell's $? after
// wait (128+N for signal N), or the hermetic child's exit code (-1 for a
// signal). The kernel cannot always say (a process another one reaped,
// before Linux 6.15); the fixture child can, whenever nothing killed it
// first.
func endReported(status string) (procstate.End, bool) {
	n, err := strconv.Atoi(status)
	switch {
	case err != nil:
		return procstate.End{}, false
	case n >= 0 && n < 128:
		return procstate.End{Exited: true, Status: n}, true
	case n > 128:
		return procstate.End{Signal: syscall.Signal(n - 128)}, true
	}
	return procstate.End{Signal: syscall.SIGKILL}, true // a signal, unnamed
}

// StrictEnv is the environment variable that, on (1, true: what
// strconv.ParseBool accepts), turns every skip for a check that would pass
// vacuously into a failure: for CI, where a missing prerequisite must not
// go unnoticed.
const StrictEnv = envswitch.Strict

// strict reports whether StrictEnv is on; a value strconv.ParseBool does
// not accept is bad input and fails the test.
func strict(tb testing.TB) bool {
	tb.Helper()
	on, err := envswitch.Bool(StrictEnv)
	if err != nil {
		tb.Fatalf("exectest: %v", err)
	}
	return on
}

// skipVacuous skips a check that cannot prove anything here, or fails it
// under EXECTEST_STRICT=1. Both end the test's goroutine.
func skipVacuous(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if p := portableLine(); p != "" {
		msg += "\n(" + p + ")"
	}
	if strict(tb) {
		tb.Fatalf("%s\n(failing instead of skipping: %s is on)", msg, StrictEnv)
	}
	// A skip on a recording TB (recorder.T) is no test's: not counted.
	if r, ok := tb.(interface{ Recording() bool }); !ok || !r.Recording() {
		vacuousSkips.Add(1)
	}
	tb.Skipf("%s\n(set %s=1 to make this a failure)", msg, StrictEnv)
}

// vacuousSkips counts the checks this test binary skipped as vacuous, for
// the line exectest.VerifyTestMain writes at the end: a skip shows only
// under go test -v, and a package whose every check skips looks like a
// pass.
var vacuousSkips atomic.Int64

// VacuousSkips is how many checks this test binary skipped as vacuous.
func VacuousSkips() int64 { return vacuousSkips.Load() }

// SkippedLine is what the end of a test binary says of its n vacuous
// skips, or "".
func SkippedLine(n int64) string {
	if n == 0 {
		return ""
	}
	checks := "checks"
	if n == 1 {
		checks = "check"
	}
	return fmt.Sprintf("exectest: %d %s skipped as vacuous: they proved nothing here (each skip says why, under go test -v); set %s=1 in CI to make them failures", n, checks, StrictEnv)
}
