package check

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/goroutines"
	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
)

// killGrace is how long a hung run has to return once the fixture's
// processes are killed, before the check gives up on it.
const killGrace = 2 * time.Second

// survivorGrace is how long a process killed just before run returned has
// to be seen dead: the kernel tears processes down asynchronously.
const survivorGrace = 500 * time.Millisecond

// Run is exectest.AssertCancel on the engine's fixture d, with the
// options cfg holds: it reports through tb and returns what it saw.
func Run(tb testing.TB, d *Fixture, run func(ctx context.Context) error, cfg Config) Outcome {
	tb.Helper()
	switch {
	case len(cfg.Errs) > 0:
		tb.Fatalf("%s", strings.Join(cfg.Errs, "\n"))
	case lifetimeError(d.spec.Lifetime, cfg) != "":
		tb.Fatalf("%s", lifetimeError(d.spec.Lifetime, cfg))
	}
	if earlier, ok := d.claim(tb); !ok {
		tb.Fatalf("exectest.AssertCancel: %s was already used by an earlier check, %s: create one per check with exectest.NewDescendant", d.label(), earlier)
	}
	c := &check{tb: tb, d: d, cfg: cfg, scope: NewScope()}
	return c.do(run)
}

// check is one AssertCancel: what it saw, in the order it saw it. Its
// Result is built from this once, at the end (see check.result).
type check struct {
	tb    testing.TB
	d     *Fixture
	cfg   Config
	scope *Scope

	// By the cancel.
	copyGoroutines int       // os/exec's copy goroutines, sampled while the fixture started
	copySampled    bool      // copyGoroutines was counted: none is a count too (*os.File stdio)
	runCall        string    // how run was seen running the command, for the fix lines (see runCallOf)
	proved         bool      // the descendant had proved it runs
	lapse          string    // why that proof no longer held, if it did not
	why            string    // why the cancel came when it did
	early          bool      // run returned before any cancel
	start          time.Time // when run was called
	cancelDelay    time.Duration

	// At the bound and after run returned.
	out            runEnd
	returned       bool
	hung           bool
	elapsed        time.Duration // from the cancel to run's return
	holders        []described   // holding the command's output at the bound
	atReturn       []described   // alive and not being killed when run returned
	survivors      []described
	orphanedInits  []described // of the PID namespaces the holders or survivors live in
	leaked         []goroutines.Group
	fds            []string // the command's pipes left open, one line each
	descendantPID  int
	nothingToCheck string // why the goroutine check had nothing to check, if it had not
	raced          string // the fixture, when the cancel came before the proof and nothing survived

	// failed says the check reported a failure: the verdict (see fail).
	failed bool
}

// fail reports a failure through the testing.TB. Every failure of the
// check goes through it, so that failed is the check's one verdict.
func (c *check) fail(format string, args ...any) {
	c.tb.Helper()
	c.failed = true
	// Said once: the tracker's line, where a message has one, says it.
	if p := portableLine(); p != "" && !strings.Contains(fmt.Sprintf(format, args...), portableTracking) {
		format += "\n(%s)"
		args = append(args, p)
	}
	c.tb.Errorf("%s", forRunCall(fmt.Sprintf(format, args...), c.runCall))
}

type runEnd struct {
	err   error
	panic any
	stack []byte
	at    time.Time // when run returned, by its own goroutine
}

func (c *check) do(run func(context.Context) error) Outcome {
	c.tb.Helper()
	// What the fixture holds goes when the check ends, not when the test
	// does: a test that runs checks in a loop holds no more after the
	// thousandth than after the first. Deferred, so that a check that
	// skips or stops the test (t.Skip, t.Fatal) releases it too.
	defer c.d.release()
	// Only pipes the command's start creates can be its leaks: not the
	// test's own stdout, nor a pipe the test opened, that it inherits.
	c.d.mon.OpenBeforeRun(proc.Pipes(os.Getpid()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	returned := make(chan runEnd, 1)
	c.start = time.Now()
	phase("start")
	go func() {
		var o runEnd
		defer func() {
			if r := recover(); r != nil {
				o = runEnd{panic: r, stack: debug.Stack()}
			}
			o.at = time.Now()
			phase("run ends")
			returned <- o
			phase("run end sent")
		}()
		c.scope.Do(ctx, func(ctx context.Context) { o.err = run(ctx) })
	}()

	early, gotEarly, why := c.waitToCancel(returned)
	phase("waited")
	if !c.copySampled && c.cfg.Mode == CancelWhenAlive {
		// Before the look at the proof, which must be the last thing
		// before the cancel.
		c.sampleCopies()
	}
	atCancel := c.d.mon.Snapshot()
	if !gotEarly {
		// waitToCancel looks at the proof before at run's return: on a
		// loaded machine both can be ready when it wakes, and a run that
		// returned first was not cancelled.
		select {
		case early = <-returned:
			gotEarly, why = true, "run returned first"
		default:
		}
	}
	c.proved, c.why, c.early = atCancel.Proof != nil, why, gotEarly
	if c.proved && !gotEarly {
		c.lapse = atCancel.Lapse()
	}
	if !gotEarly {
		// From now on a fixture process may die of the cancel: not of its
		// own failure. A run that returned first was not cancelled.
		c.d.mon.MarkCancelled()
	}
	// The time first: a return the cancel caused then comes after it by
	// the clock, however late this goroutine runs again.
	cancelled := time.Now()
	cancel()
	phase("cancel")
	c.cancelDelay = cancelled.Sub(c.start)
	if !c.copySampled {
		// A timed cancel comes when it was asked for, not a profile
		// later (up to copySampleWait): the sample follows it, before the
		// command's pipes close.
		c.sampleCopies()
	}

	if gotEarly {
		c.out, c.returned = early, true
	} else {
		c.waitReturn(returned, cancelled)
	}
	phase("returned")
	if c.out.panic != nil {
		c.fail("exectest: run panicked: %v\n%s", c.out.panic, c.out.stack)
	}
	if !c.returned {
		return c.result()
	}
	// At once: a process alive and not being killed now survived the
	// cancel, whatever kills it later.
	c.atReturn = c.notDying(c.d.mon.Snapshot())
	if !c.proved {
		c.awaitLateProof()
	}
	// What the fixture reported by now, a late proof of life included, is
	// what the check judges by.
	snap := c.d.mon.Snapshot()
	if snap.Proof != nil {
		c.descendantPID = snap.Proof.ID.PID
	}
	// Before the survivors are killed: killing them closes the pipes, and
	// the leaked goroutines and descriptors would vanish with them.
	c.checkLeaks(snap)
	// Looked at after the leaks: a process reported meanwhile counts too.
	c.checkSurvivors(c.d.mon.Snapshot())
	switch {
	case c.failed:
	case snap.Proof == nil:
		c.judgeUnproved(snap)
	default:
		c.judgeProved(snap)
	}
	c.judgeEarlySeries(snap)
	if !c.failed {
		logf(c.tb, "%s", c.passLine(snap))
	}
	phase("end")
	return c.result()
}

// waitToCancel waits for the moment to cancel and says why it came. If
// run returns first, it says so.
func (c *check) waitToCancel(returned <-chan runEnd) (o runEnd, early bool, why string) {
	var timer <-chan time.Time
	var due time.Time // a timed cancel's time, by the clock
	switch c.cfg.Mode {
	case CancelAfter:
		due, timer = time.Now().Add(c.cfg.Delay), time.After(c.cfg.Delay)
	case CancelAfterRandom:
		d := c.cfg.Delay + rand.N(c.cfg.UpTo-c.cfg.Delay)
		due, timer = time.Now().Add(d), time.After(d)
	default:
		timer = time.After(deadline(c.tb, c.cfg.ProofTimeout))
	}
	timeUp := func() (runEnd, bool, string) {
		if c.cfg.Mode == CancelWhenAlive {
			return runEnd{}, false, "no proof of life came within the proof timeout"
		}
		return runEnd{}, false, "the cancel delay passed"
	}
	for {
		// A timed cancel that is due goes first: select picks at random
		// among ready cases, and a report seen before it would have the
		// copy count (a goroutine profile) delay it. (At the proof
		// timeout, a proof that came with it still counts.)
		if c.cfg.Mode != CancelWhenAlive {
			// By the clock too: on a loaded machine the timer's channel
			// can be ready tens of ms late, after the child's report.
			if !time.Now().Before(due) {
				return timeUp()
			}
			select {
			case <-timer:
				return timeUp()
			default:
			}
		}
		s := c.d.mon.Snapshot()
		if !c.copySampled && c.sampleNow(s) {
			c.sampleCopies()
		}
		if c.cfg.Mode == CancelWhenAlive {
			if s.Proof != nil {
				return runEnd{}, false, "the descendant proved it runs"
			}
			if len(s.Failures) > 0 {
				return runEnd{}, false, "the fixture reported it cannot run"
			}
		}
		select {
		case o := <-returned:
			return o, true, "run returned first"
		case <-s.Changed:
		case <-timer:
			return timeUp()
		}
	}
}

// sampleNow says whether to count os/exec's copy goroutines now, before
// the cancel: os/exec has started them by the time the child runs, and a
// count between the proof and the cancel would delay the cancel by the
// goroutine profile (0.5 to 1 ms). A check that cancels at the proof
// counts once the descendant has reported, while the monitor waits for
// its exec: earlier, the profile, which stops the world, competes with
// the fixture's start-up and the monitor for the processors. The others
// count as soon as the child runs.
func (c *check) sampleNow(s monitor.Snapshot) bool {
	if c.cfg.Mode == CancelWhenAlive {
		return s.Alive > 0
	}
	return s.Started > 0
}

// sampleCopies counts os/exec's copy goroutines, once per check:
// a count of none (a runner with *os.File stdio has no copy goroutine)
// is not counted again, each time a goroutine profile.
func (c *check) sampleCopies() {
	sample := sampleCopyGoroutines(c.scope)
	c.copyGoroutines, c.runCall, c.copySampled = sample.n, sample.call, true
}

// waitReturn waits for run to return within the bound; past it, it kills
// the fixture's processes and waits a grace period more.
func (c *check) waitReturn(returned <-chan runEnd, cancelled time.Time) {
	c.tb.Helper()
	bound := time.NewTimer(c.cfg.Bound - time.Since(cancelled)) // from the cancel, whatever came after it
	defer bound.Stop()
	select {
	case c.out = <-returned:
		c.elapsed, c.returned = c.out.at.Sub(cancelled), true
		if c.elapsed < 0 {
			// It returned in the microseconds between the last look at
			// returned and the cancel: before the cancel, so early.
			c.elapsed, c.early = 0, true
		}
		return
	case <-bound.C:
	}
	c.hung = true
	stillRunning := time.Since(cancelled)
	atBound := c.d.mon.Snapshot()
	c.holders = c.pipeHolders(atBound)
	c.orphanedInits = orphanedInits(c.holders, atBound) // while they live
	chosen := map[int]string{}                          // while they live
	for _, p := range c.holders {
		chosen[p.PID] = c.d.tracker.CgroupChosen(p.PID)
	}
	killErr := c.d.killAll()
	killed := time.Now()
	var afterKill string
	select {
	case c.out = <-returned:
		c.elapsed, c.returned = time.Since(cancelled), true
		afterKill = fmt.Sprintf("run returned %v after the kill (%v after cancel): err = %v", short(time.Since(killed)), short(c.elapsed), c.out.err)
	case <-time.After(killGrace):
		afterKill = fmt.Sprintf("run did not return %v after the kill either: its goroutine is leaked", killGrace)
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "exectest: run did not return within the bound after cancel: got still running after %v, want return within %v", short(stillRunning), c.cfg.Bound)
	heading := "processes holding the command's output pipe at the bound (the fixture's are killed by exectest so that run can return):"
	if proc.Portable() {
		heading = "fixture processes alive at the bound (portable mode: cannot see which of them, or which other process, holds the command's output pipe; exectest kills the fixture's so that run can return):"
	}
	writeList(&msg, heading, c.holders)
	writeOrphanedInits(&msg, c.orphanedInits)
	// Once run returned: its error may tell how the fixture child ended.
	msg.WriteString("\n" + c.fixFor(c.holders, atBound, func(pid int) string { return chosen[pid] }))
	if killErr != nil {
		fmt.Fprintf(&msg, "\nkilling them: %v", killErr)
	}
	c.writeTracker(&msg, atBound)
	msg.WriteString("\n" + afterKill)
	c.fail("%s", msg.String())
}

// lateProofWindow is how long a descendant that had not proved itself at
// the cancel has to do so after run returns: one that survived proves
// itself late (its report takes a few milliseconds) and is caught.
const lateProofWindow = 250 * time.Millisecond

// awaitLateProof waits up to lateProofWindow, or the bound if shorter, for
// a late proof of life.
func (c *check) awaitLateProof() {
	ctx, cancel := context.WithTimeout(context.Background(), min(c.cfg.Bound, lateProofWindow))
	defer cancel()
	_ = c.d.WaitAlive(ctx)
}

// checkLeaks fails for goroutines run started that outlive it, and for
// ends of the command's pipes the test process still holds. Both are this
// check's own (by pprof label, by pipe inode), so it is exact under
// t.Parallel. It looks again, with a capped backoff, for up to
// defaultLeakWait: os/exec's goroutines end just after Wait returns.
func (c *check) checkLeaks(s monitor.Snapshot) {
	c.tb.Helper()
	var (
		gs  []goroutines.Group
		fds []proc.FD
	)
	// os/exec's goroutines are runnable now and end at once, given a
	// processor: give them this one before the first look.
	runtime.Gosched()
	settling.Poll(c.leakWait(), func() bool {
		gs, fds = nil, nil
		if !c.cfg.NoGoroutines {
			gs = c.scope.running()
		}
		if !c.cfg.NoFDs && len(s.Pipes) > 0 {
			fds = proc.FDsOn(os.Getpid(), s.Pipes)
		}
		return len(gs) == 0 && len(fds) == 0
	})
	var msgs []string
	if len(gs) > 0 {
		c.leaked = gs
		msgs = append(msgs, (&leakedGoroutinesError{groups: gs, after: "run returned", wait: c.leakWait()}).Error())
	} else if !c.cfg.NoGoroutines && c.copyGoroutines == 0 {
		// Said only from what was seen: the count is a sample, and can
		// miss goroutines a loaded machine has not run yet.
		if stdio, ok := s.StdioWithoutPipes(); ok {
			c.nothingToCheck = fmt.Sprintf("goroutine check: nothing to check: the fixture child's stdin, stdout and stderr are no pipe opened during run (%s), and no os/exec copy goroutine was seen", strings.Join(stdio, "; "))
		}
	}
	if len(fds) > 0 {
		err := &leakedDescriptorsError{FDs: fds, Name: s.Pipes}
		c.fds = err.lines()
		msgs = append(msgs, err.Error())
	}
	if len(msgs) > 0 {
		c.fail("%s\n(%s)\n%s", strings.Join(msgs, "\n"), c.returnedWhen(), c.fixLeaks(len(gs) > 0))
	}
}

func (c *check) leakWait() time.Duration {
	if c.cfg.Settle > 0 {
		return c.cfg.Settle
	}
	return defaultLeakWait
}

func logf(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if l, ok := tb.(interface{ Logf(string, ...any) }); ok {
		l.Logf(format, args...)
	}
}

// checkSurvivors fails for every fixture process alive after run returned.
func (c *check) checkSurvivors(s monitor.Snapshot) {
	c.tb.Helper()
	grace := survivorGrace
	if c.cfg.Settle > 0 {
		grace = c.cfg.Settle
	}
	// The grace is for processes already being killed when run returned;
	// the others survived, even if they are dead by now.
	c.survivors = relabel(union(c.atReturn, c.aliveAfter(grace, s)), s)
	if len(c.survivors) == 0 {
		return
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "exectest: fixture processes alive after run returned: got %d, want 0 (%s, err = %v)", len(c.survivors), c.returnedWhen(), c.out.err)
	writeList(&msg, fmt.Sprintf("survivors, alive and not being killed when run returned or still alive %v later (killed by exectest now):", grace), c.survivors)
	c.orphanedInits = orphanedInits(c.survivors, s)
	writeOrphanedInits(&msg, c.orphanedInits)
	msg.WriteString("\n" + c.fixSurvivors(s))
	if err := c.d.killAll(); err != nil {
		fmt.Fprintf(&msg, "\nkilling them: %v", err)
	}
	c.writeTracker(&msg, s)
	c.fail("%s", msg.String())
}

// judgeUnproved decides about a check whose descendant never proved it
// runs: vacuous (skip) unless the cancel simply won the race with start-up.
func (c *check) judgeUnproved(snap monitor.Snapshot) {
	c.tb.Helper()
	// With an early cancel, nothing proved alive is a possible outcome of
	// the race, unless the fixture said it cannot run or run returned
	// before the cancel without starting it.
	raced := c.cfg.Mode != CancelWhenAlive && len(snap.Failures) == 0 && (snap.Started > 0 || !c.early)
	if raced {
		c.raced = snap.String() // a pass: its line says so
		return
	}
	var when string
	if c.early {
		when = fmt.Sprintf("run returned before any cancel, %v after start: err = %v", short(c.out.at.Sub(c.start)), c.out.err)
	} else {
		when = fmt.Sprintf("exectest cancelled %v after start (%s); run then returned %v later: err = %v", short(c.cancelDelay), c.why, short(c.elapsed), c.out.err)
	}
	ran := monitor.RanUnreported(c.out.err, c.d.spec)
	var earlyErr error
	if c.early {
		earlyErr = c.out.err
	}
	skipVacuous(c.tb, "exectest: the descendant never proved it runs, so the check would pass vacuously\nlooked for: a report %q from the fixture\n%s\nthe fixture: %s\n%s",
		"exectest "+c.d.spec.Token+" alive", when, snap.Explain(ran), fixUnproved(snap, ran, c.d.dir, earlyErr))
}

// writeTracker says how the fixture's processes were followed where that
// bears on the verdict (the portable mode, a cgroup the code under test
// chose, no subreaper: see [proc.Tracker.Partial]), and what went wrong
// with it, if anything. Elsewhere Result.Tracker says it.
func (c *check) writeTracker(b *strings.Builder, s monitor.Snapshot) {
	if !c.d.tracker.Partial() && len(s.Notes) == 0 {
		return
	}
	fmt.Fprintf(b, "\nfixture processes tracked by: %s", c.d.tracking()) // as the fixture child's cgroup made it
	for _, n := range s.Notes {
		fmt.Fprintf(b, "\n\t(%s)", n)
	}
}

func (c *check) returnedWhen() string {
	if c.early {
		return fmt.Sprintf("run returned before the cancel, %v after start", short(c.out.at.Sub(c.start)))
	}
	return fmt.Sprintf("run returned %v after cancel", short(c.elapsed))
}

// short rounds d for a message: to the microsecond below a millisecond, to
// the millisecond above, so that "0s" never hides a real duration.
func short(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
