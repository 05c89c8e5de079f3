package exectest

import (
	"fmt"
	"strconv"
	"sync"
	"syscall"
	"time"

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
func (c *check) judgeProved(snap snapshot) {
	c.tb.Helper()
	p := snap.proof
	what := fmt.Sprintf("the descendant (pid %d, %s)", p.id.PID, p.comm)
	if c.lapse != "" {
		skipVacuous(c.tb, "exectest: %s no longer held its proof of life at the cancel, so the check would pass vacuously: %s\n"+
			"fix: make the descendant live where the command runs: /bin/sleep must be a working sleep there (not another program, not missing its libraries)\nthe fixture: %s",
			what, c.lapse, snap)
	}
	var end procstate.End
	ok := settling.Poll(endWait, func() bool {
		var known bool
		if end, known = p.watch.End(); !known {
			// The fixture child, alive to see it, reports its exit.
			end, known = endReported(c.d.mon.reportedExit())
		}
		return known
	})
	if ok && end.OnItsOwn() {
		skipVacuous(c.tb, "exectest: %s ended on its own (%v), not by the cancel, so the check would pass vacuously (%s)\n"+
			"fix: where the command runs, /bin/sleep must sleep for its whole lifetime (%v): it is another program there, or it cannot run\nthe fixture: %s",
			what, end, c.returnedWhen(), c.d.spec.Lifetime, snap)
	}
}

// earlySeriesLength is how many early-cancel checks of one test may pass
// in a row without the fixture ever starting before that is reported: one
// such check may have lost the race with start-up; a series never won it.
const earlySeriesLength = 20

// earlySeries counts the early-cancel checks per test name (across
// -count runs too) and whether the fixture started in any of them.
var earlySeries sync.Map // string -> *series

type series struct {
	mu      sync.Mutex
	checks  int
	started bool
}

// judgeEarlySeries reports a series of passing early-cancel checks in
// which the fixture never once started: every cancel came before the
// command ran, or run never runs it. Each alone may pass; together they
// prove nothing.
func (c *check) judgeEarlySeries(snap snapshot) {
	c.tb.Helper()
	if c.cfg.mode == cancelWhenAlive {
		return
	}
	v, _ := earlySeries.LoadOrStore(c.tb.Name(), &series{})
	s := v.(*series)
	s.mu.Lock()
	s.checks++
	s.started = s.started || snap.started > 0 || snap.proof != nil
	n, started := s.checks, s.started
	s.mu.Unlock()
	if started || n < earlySeriesLength || c.failed {
		return
	}
	skipVacuous(c.tb, "exectest: early-cancel checks of %s: got %d in which the fixture never started, want it to start in at least one, so the checks pass vacuously\n"+
		"fix: check that run runs d.Argv(), and cancel later (CancelAfterRandom with a later max) or use the default (no cancel option), which waits for the proof of life\nthe fixture (this check): %s",
		c.tb.Name(), n, snap)
}

// lifetimeMargin is how much longer than the cancel window plus the bound
// the descendant must live at least: past the bound, the check still
// looks for survivors, and a descendant that ends on its own by then lets
// a hung run pass.
func lifetimeMargin(bound time.Duration) time.Duration { return max(bound, killGrace) }

// lifetimeError says what is wrong when the descendant's lifetime does
// not outlast the check, or "".
func lifetimeError(lifetime time.Duration, cfg assertConfig) string {
	window := time.Duration(0)
	switch cfg.mode {
	case cancelAfter:
		window = cfg.delay
	case cancelAfterRandom:
		window = cfg.upTo
	}
	need := window + cfg.bound + lifetimeMargin(cfg.bound)
	if lifetime >= need {
		return ""
	}
	return fmt.Sprintf("exectest.AssertCancel: the descendant's lifetime: got %v, want at least %v (the cancel delay %v + the bound %v + %v), or a hung run passes when the descendant ends on its own\n"+
		"fix: exectest.NewDescendant(t, exectest.Lifetime(%s)), or a shorter exectest.Within",
		lifetime, need, window, cfg.bound, lifetimeMargin(cfg.bound), goDuration(need))
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
