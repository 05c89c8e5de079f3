package exectest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/goroutines"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/internal/role"
	"github.com/exectest/exectest/proctest"
)

// killGrace is how long a hung run has to return once the fixture's
// processes are killed, before the check gives up on it.
const killGrace = 2 * time.Second

// survivorGrace is how long a process killed just before run returned has
// to be seen dead: the kernel tears processes down asynchronously.
const survivorGrace = 500 * time.Millisecond

// AssertCancel checks that cancelling run's context really stops the
// command run started from d: run returns within the bound (see [Within])
// and no process of the fixture survives.
//
// run must start d.Argv() (or d.Script()) under ctx and return when the
// command is done, as the code under test does. AssertCancel calls it in
// a goroutine and cancels ctx as soon as the descendant has proved it
// runs (or as [CancelAfter] and [CancelAfterRandom] say). Past the bound
// it reports which processes held the command's output, kills the
// fixture's processes (those only) so that run returns, and fails.
// After run returns, each of these is a failure: a goroutine that run
// started, directly or through os/exec, still running; an end of the
// command's pipes still open in the test process (see
// [WithoutGoroutineCheck], [WithoutDescriptorCheck]); a fixture process
// still alive (zombies count as dead). The leaks are looked for first,
// since killing a survivor closes the pipe and hides them.
//
// When the descendant never proves it runs (run never ran the command,
// the command could not start, /bin/sleep or /proc is missing where it
// ran), the check would pass vacuously: it skips, with the reason, or
// fails under EXECTEST_STRICT=1.
//
// A Descendant serves one check.
func AssertCancel(tb testing.TB, d *Descendant, run func(ctx context.Context) error, opts ...Option) Result {
	tb.Helper()
	cfg := newAssertConfig(opts)
	switch {
	case d == nil:
		tb.Fatalf("exectest.AssertCancel: descendant: got nil, want one from exectest.NewDescendant(t)")
	case run == nil:
		tb.Fatalf("exectest.AssertCancel: run: got nil, want a func(ctx) error that runs d.Argv() under ctx")
	case len(cfg.errs) > 0:
		tb.Fatalf("%s", strings.Join(cfg.errs, "\n"))
	case lifetimeError(d.spec.Lifetime, cfg) != "":
		tb.Fatalf("%s", lifetimeError(d.spec.Lifetime, cfg))
	case !d.claim():
		tb.Fatalf("exectest.AssertCancel: %v was already used by an earlier check: create one per check with exectest.NewDescendant", d.name())
	}
	c := &check{tb: tb, d: d, cfg: cfg, scope: NewGoroutineScope()}
	c.res.Tracker = d.tracking()
	return c.do(run)
}

type check struct {
	tb    testing.TB
	d     *Descendant
	cfg   assertConfig
	res   Result
	why   string // why the cancel came when it did
	scope *GoroutineScope
	// lapse says why the proof of life no longer held at the cancel.
	lapse string
	// atReturn are the fixture's processes alive and not being killed
	// when run returned.
	atReturn []described
}

type outcome struct {
	err   error
	panic any
	stack []byte
}

func (c *check) do(run func(context.Context) error) Result {
	c.tb.Helper()
	// Only pipes the command's start creates can be its leaks: not the
	// test's own stdout, nor a pipe the test opened, that it inherits.
	c.d.mon.openBeforeRun(proc.Pipes(os.Getpid()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	returned := make(chan outcome, 1)
	start := time.Now()
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o = outcome{panic: r, stack: debug.Stack()}
			}
			returned <- o
		}()
		c.scope.Do(ctx, func(ctx context.Context) { o.err = run(ctx) })
	}()

	early, gotEarly, why := c.waitToCancel(returned)
	c.res.Proved = c.d.mon.snapshot().proof != nil
	if c.res.Proved && !gotEarly {
		c.lapse = c.d.mon.lapse()
	}
	c.why = why
	// From now on a fixture process may die of the cancel: not of its own
	// failure. A run that returned first was not cancelled.
	c.d.mon.cancel.Store(!gotEarly)
	if c.res.CopyGoroutines == 0 {
		c.res.CopyGoroutines = sampleCopyGoroutines(c.scope)
	}
	cancel()
	cancelled := time.Now()
	c.res.CancelDelay = cancelled.Sub(start)

	var o outcome
	if gotEarly {
		o = early
		c.res.Returned, c.res.Early = true, true
	} else {
		o = c.waitReturn(returned, cancelled)
	}
	c.res.Err, c.res.Panic = o.err, o.panic
	c.res.Tracker = c.d.tracking() // as the fixture child's cgroup made it
	if o.panic != nil {
		c.tb.Errorf("exectest: run panicked: %v\n%s", o.panic, o.stack)
	}
	if !c.res.Returned {
		return c.res
	}
	// At once: a process alive and not being killed now survived the
	// cancel, whatever kills it later.
	c.atReturn = c.notDying()
	if !c.res.Proved {
		c.awaitLateProof()
	}
	snap := c.d.mon.snapshot()
	if snap.proof != nil {
		c.res.Descendant = snap.proof.id
	}
	// Before the survivors are killed: killing them closes the pipes, and
	// the leaked goroutines and descriptors would vanish with them.
	c.checkLeaks(snap)
	c.checkSurvivors(o, snap)
	switch {
	case !c.res.passed():
	case snap.proof == nil:
		c.judgeUnproved(o, snap)
	default:
		c.judgeProved(snap)
	}
	c.judgeEarlySeries(snap)
	return c.res
}

// waitToCancel waits for the moment to cancel and says why it came. If
// run returns first, it says so.
func (c *check) waitToCancel(returned <-chan outcome) (o outcome, early bool, why string) {
	var timer <-chan time.Time
	switch c.cfg.mode {
	case cancelAfter:
		timer = time.After(c.cfg.delay)
	case cancelAfterRandom:
		timer = time.After(c.cfg.delay + rand.N(c.cfg.upTo-c.cfg.delay))
	default:
		timer = time.After(deadline(c.tb, c.cfg.proofTimeout))
	}
	for {
		s := c.d.mon.snapshot()
		if s.started > 0 && c.res.CopyGoroutines == 0 {
			// os/exec has started its goroutines by the time the child
			// runs: count them now, while the fixture is still starting,
			// rather than between the proof and the cancel.
			c.res.CopyGoroutines = sampleCopyGoroutines(c.scope)
		}
		if c.cfg.mode == cancelWhenAlive {
			if s.proof != nil {
				return outcome{}, false, "the descendant proved it runs"
			}
			if len(s.failures) > 0 {
				return outcome{}, false, "the fixture reported it cannot run"
			}
		}
		select {
		case o := <-returned:
			return o, true, "run returned first"
		case <-s.changed:
		case <-timer:
			if c.cfg.mode == cancelWhenAlive {
				return outcome{}, false, "no proof of life came within the proof timeout"
			}
			return outcome{}, false, "the cancel delay passed"
		}
	}
}

// waitReturn waits for run to return within the bound; past it, it kills
// the fixture's processes and waits a grace period more.
func (c *check) waitReturn(returned <-chan outcome, cancelled time.Time) outcome {
	c.tb.Helper()
	bound := time.NewTimer(c.cfg.bound)
	defer bound.Stop()
	select {
	case o := <-returned:
		c.res.Elapsed, c.res.Returned = time.Since(cancelled), true
		return o
	case <-bound.C:
	}
	c.res.Hung = true
	holders := c.pipeHolders()
	c.res.Holders = processes(holders)
	killErr := c.d.killAll()
	killed := time.Now()
	var msg strings.Builder
	fmt.Fprintf(&msg, "exectest: run did not return within the bound after cancel: got still running after %v, want return within %v", short(time.Since(cancelled)), c.cfg.bound)
	writeList(&msg, "processes holding the command's output pipe at the bound (the fixture's are killed by exectest so that run can return):", holders)
	msg.WriteString("\n" + fixFor(holders, c.d.mon.snapshot()))
	if killErr != nil {
		fmt.Fprintf(&msg, "\nkilling them: %v", killErr)
	}
	c.writeTracker(&msg)
	select {
	case o := <-returned:
		c.res.Elapsed, c.res.Returned = time.Since(cancelled), true
		fmt.Fprintf(&msg, "\nrun returned %v after the kill (%v after cancel): err = %v", short(time.Since(killed)), short(c.res.Elapsed), o.err)
		c.tb.Errorf("%s", msg.String())
		return o
	case <-time.After(killGrace):
		fmt.Fprintf(&msg, "\nrun did not return %v after the kill either: its goroutine is leaked", killGrace)
		c.tb.Errorf("%s", msg.String())
		return outcome{}
	}
}

// lateProofWindow is how long a descendant that had not proved itself at
// the cancel has to do so after run returns: one that survived proves
// itself late (its report takes a few milliseconds) and is caught.
const lateProofWindow = 250 * time.Millisecond

// awaitLateProof waits up to lateProofWindow, or the bound if shorter, for
// a late proof of life.
func (c *check) awaitLateProof() {
	ctx, cancel := context.WithTimeout(context.Background(), min(c.cfg.bound, lateProofWindow))
	defer cancel()
	_ = c.d.WaitAlive(ctx)
}

// checkLeaks fails for goroutines run started that outlive it, and for
// ends of the command's pipes the test process still holds. Both are this
// check's own (by pprof label, by pipe inode), so it is exact under
// t.Parallel. It looks again, with a capped backoff, for up to
// defaultLeakWait: os/exec's goroutines end just after Wait returns.
func (c *check) checkLeaks(s snapshot) {
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
		if !c.cfg.noGoroutines {
			gs = c.scope.running()
		}
		if !c.cfg.noFDs && len(s.pipes) > 0 {
			fds = proc.FDsOn(os.Getpid(), s.pipes)
		}
		return len(gs) == 0 && len(fds) == 0
	})
	var msgs []string
	if len(gs) > 0 {
		err := &leakedGoroutinesError{groups: gs, after: "run returned", wait: c.leakWait()}
		c.res.Goroutines = err.Stacks()
		for _, g := range gs {
			c.res.LeakedGoroutines += g.Count
		}
		msgs = append(msgs, err.Error())
	} else if !c.cfg.noGoroutines && c.res.CopyGoroutines == 0 {
		// Said only from what was seen: the count is a sample, and can
		// miss goroutines a loaded machine has not run yet.
		if stdio, ok := s.stdioWithoutPipes(); ok {
			logf(c.tb, "exectest: goroutine check: nothing to check: the fixture child's stdin, stdout and stderr are no pipe opened during run (%s), and no os/exec copy goroutine was seen", strings.Join(stdio, "; "))
		}
	}
	if len(fds) > 0 {
		c.res.Descriptors = fds
		msgs = append(msgs, (&leakedDescriptorsError{FDs: fds, Name: s.pipes}).Error())
	}
	if len(msgs) > 0 {
		fix := fixWait
		if len(gs) == 0 {
			fix = fixCloseFDs
		}
		c.tb.Errorf("%s\n(%s)\n%s", strings.Join(msgs, "\n"), c.returnedWhen(), fix)
	}
}

func (c *check) leakWait() time.Duration {
	if c.cfg.settle > 0 {
		return c.cfg.settle
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
func (c *check) checkSurvivors(o outcome, snap snapshot) {
	c.tb.Helper()
	grace := survivorGrace
	if c.cfg.settle > 0 {
		grace = c.cfg.settle
	}
	// The grace is for processes already being killed when run returned;
	// the others survived, even if they are dead by now.
	survivors := union(c.atReturn, c.aliveAfter(grace))
	c.res.Survivors = processes(survivors)
	if len(survivors) == 0 {
		return
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "exectest: fixture processes alive after run returned: got %d, want 0 (%s, err = %v)", len(survivors), c.returnedWhen(), o.err)
	writeList(&msg, fmt.Sprintf("survivors, alive and not being killed when run returned or still alive %v later (killed by exectest now):", grace), survivors)
	msg.WriteString("\n" + c.fixSurvivors(survivors, snap))
	if err := c.d.killAll(); err != nil {
		fmt.Fprintf(&msg, "\nkilling them: %v", err)
	}
	c.writeTracker(&msg)
	c.tb.Errorf("%s", msg.String())
}

// judgeUnproved decides about a check whose descendant never proved it
// runs: vacuous (skip) unless the cancel simply won the race with start-up.
func (c *check) judgeUnproved(o outcome, snap snapshot) {
	c.tb.Helper()
	// With an early cancel, nothing proved alive is a possible outcome of
	// the race, unless the fixture said it cannot run or run returned
	// before the cancel without starting it.
	raced := c.cfg.mode != cancelWhenAlive && len(snap.failures) == 0 && (snap.started > 0 || !c.res.Early)
	if raced {
		if l, ok := c.tb.(interface{ Logf(string, ...any) }); ok {
			l.Logf("exectest: cancelled %v after start, before the descendant proved it runs; nothing of the fixture survived (%s)", short(c.res.CancelDelay), snap)
		}
		return
	}
	var when string
	if c.res.Early {
		when = fmt.Sprintf("run returned before any cancel, %v after start: err = %v", short(c.res.CancelDelay), o.err)
	} else {
		when = fmt.Sprintf("exectest cancelled %v after start (%s); run then returned %v later: err = %v", short(c.res.CancelDelay), c.why, short(c.res.Elapsed), o.err)
	}
	ran := ranUnreported(o.err, c.d.spec)
	skipVacuous(c.tb, "exectest: the descendant never proved it runs, so the check would pass vacuously\nlooked for: a report %q from the fixture\n%s\nthe fixture: %s\n%s",
		"exectest "+c.d.spec.Token+" alive", when, snap.explain(ran), fixUnproved(snap, ran, c.d.dir))
}

// described is a process as a message describes it, with its role, by
// which the check decides what it is (never by the message's words).
type described struct {
	proctest.Process
	role role.Role
}

// describeAs describes a live process in role r, with which of pipes
// (target -> name) it holds a write end of.
func describeAs(id proc.Identity, r role.Role, pipes map[string]string) (described, bool) {
	p, ok := proc.Describe(id, r.String())
	if !ok {
		return described{}, false
	}
	p.Label(pipes)
	return described{proctest.Process(p.Facts), r}, true
}

// describe describes the live processes among ids.
func describe(ids []proc.Identity, s snapshot) []described {
	var ps []described
	for _, id := range ids {
		if p, ok := describeAs(id, s.role(id), s.pipes); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// processes is what a Result says of ps.
func processes(ps []described) []proctest.Process {
	var out []proctest.Process
	for _, p := range ps {
		out = append(out, p.Process)
	}
	return out
}

// alive describes the fixture's processes that are alive now.
func (c *check) alive() []described {
	s := c.d.mon.snapshot()
	return describe(c.d.tracker.Members(s.ids()), s)
}

// notDying describes the fixture's processes that are alive and not on
// their way out: no fatal signal pending, not exiting (see
// [procstate.Dying]).
func (c *check) notDying() []described {
	s := c.d.mon.snapshot()
	var ids []proc.Identity
	for _, id := range c.d.tracker.Members(s.ids()) {
		if !procstate.Dying(id) {
			ids = append(ids, id)
		}
	}
	return describe(ids, s)
}

// union is a and those of b not in a, by identity.
func union(a, b []described) []described {
	out := slices.Clone(a)
	for _, p := range b {
		if !slices.ContainsFunc(a, func(q described) bool { return q.PID == p.PID && q.Start == p.Start }) {
			out = append(out, p)
		}
	}
	return out
}

// aliveAfter returns the fixture's processes still alive after up to
// grace, polling with a capped backoff.
func (c *check) aliveAfter(grace time.Duration) []described {
	s := c.d.mon.snapshot()
	return describe(awaitDead(c.d.tracker, s.ids(), grace), s)
}

// pipeHolders adds to the fixture's live processes every other process
// that holds a write end of the command's output pipes: the answer to
// "why does Wait not return". The test process itself is one when run
// kept a write end open. It scans /proc: failures only.
func (c *check) pipeHolders() []described {
	s := c.d.mon.snapshot()
	ps := c.alive()
	if len(s.pipes) == 0 {
		return ps
	}
	if p, ok := selfHolder(s); ok {
		ps = append(ps, p)
	}
	skip := []int{os.Getpid()}
	for _, p := range ps {
		skip = append(skip, p.PID)
	}
	for _, id := range proc.PipeHolders(s.pipes, skip...) {
		if p, ok := describeAs(id, role.Stranger, s.pipes); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// selfHolder describes the test process if it holds a write end of the
// command's stdout or stderr: os/exec closes its own copies after Start,
// so the copy is run's, an *os.File it gave the command and never closed.
// (A write end of stdin is the test's to hold: it writes there.) The test
// process is never killed.
func selfHolder(s snapshot) (described, bool) {
	out := map[string]string{}
	for target, name := range s.pipes {
		if strings.Contains(name, "stdout") || strings.Contains(name, "stderr") {
			out[target] = name
		}
	}
	if !slices.ContainsFunc(proc.FDsOn(os.Getpid(), out), func(fd proc.FD) bool { return fd.Write }) {
		return described{}, false
	}
	id, err := proc.Identify(os.Getpid())
	if err != nil {
		return described{}, false
	}
	return describeAs(id, role.TestProcess, out)
}

// writeTracker says how the fixture's processes were followed, and what
// went wrong with it, if anything: a failure is only as good as that.
func (c *check) writeTracker(b *strings.Builder) {
	c.res.Tracker = c.d.tracking() // as the fixture child's cgroup made it
	fmt.Fprintf(b, "\nfixture processes tracked by: %s", c.res.Tracker)
	for _, n := range c.d.mon.snapshot().notes {
		fmt.Fprintf(b, "\n\t(%s)", n)
	}
}

func (c *check) returnedWhen() string {
	if c.res.Early {
		return fmt.Sprintf("run returned before the cancel, %v after start", short(c.res.CancelDelay))
	}
	return fmt.Sprintf("run returned %v after cancel", short(c.res.Elapsed))
}

func writeList(b *strings.Builder, header string, ps []described) {
	if len(ps) == 0 {
		fmt.Fprintf(b, "\n%s none (all had exited)", header)
		return
	}
	b.WriteString("\n" + header)
	for _, p := range ps {
		b.WriteString("\n\t" + p.String())
	}
}

// short rounds d for a message: to the microsecond below a millisecond, to
// the millisecond above, so that "0s" never hides a real duration.
func short(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
