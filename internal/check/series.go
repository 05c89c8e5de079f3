package check

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/monitor"
)

// earlySeriesLength is how many early-cancel checks of one test may pass
// without the fixture ever starting before that is reported: one such
// check may have lost the race with start-up; a series never won it. It
// is also how many early cancels of one test, all before the descendant
// proved it runs, make the note that the window misses the start-up.
const earlySeriesLength = 20

// earlySeries counts the early-cancel checks of each test, in this
// process, so across -count runs too: by the test's top-level name, which
// counts the rows of a table-driven test (its t.Run subtests) together,
// and by the row's own full name, which counts a row repeated by -count
// even where the test's other rows start the fixture.
var earlySeries sync.Map // name -> *series

type series struct {
	mu       sync.Mutex
	checks   int           // early-cancel checks
	started  bool          // the fixture started in one of them
	cancels  int           // of them, cancelled rather than returned first
	won      bool          // the descendant had proved it runs at one of those cancels
	earliest time.Duration // the earliest and latest of those cancels, after run started
	latest   time.Duration
	noted    bool // the note that every cancel lost the race was given
}

// seriesNames are the names a check counts under: the test's top-level
// name, and the row's own if it is a subtest.
func seriesNames(name string) []string {
	top, _, sub := strings.Cut(name, "/")
	if !sub {
		return []string{top}
	}
	return []string{top, name}
}

// judgeEarlySeries counts an early-cancel check. It reports a series of
// passing early-cancel checks in which the fixture never once started:
// every cancel came before the command ran, or run never runs it. Each
// alone may pass; together they prove nothing. And it says once per test
// when the fixture started but every cancel came before the descendant
// proved it runs: the checks tested a cancel during start-up only.
func (c *check) judgeEarlySeries(snap monitor.Snapshot) {
	c.tb.Helper()
	if c.cfg.Mode == CancelWhenAlive {
		return
	}
	started := snap.Started > 0 || snap.Proof != nil
	var vacuous, lost string
	var n int
	for i, name := range seriesNames(c.tb.Name()) {
		v, _ := earlySeries.LoadOrStore(name, &series{})
		s := v.(*series)
		s.mu.Lock()
		s.checks++
		s.started = s.started || started
		if !c.early {
			if s.cancels == 0 || c.cancelDelay < s.earliest {
				s.earliest = c.cancelDelay
			}
			s.latest = max(s.latest, c.cancelDelay)
			s.cancels++
			s.won = s.won || c.proved
		}
		if !s.started && s.checks >= earlySeriesLength {
			// The row's own series, where it is one, names it best.
			vacuous, n = name, s.checks
			if name != c.tb.Name() {
				vacuous += " (its rows counted together)"
			}
		}
		if i == 0 && s.started && !s.won && s.cancels >= earlySeriesLength && !s.noted {
			s.noted = true
			lost = fmt.Sprintf("exectest: early-cancel checks of %s: got %d cancels, every one before the descendant proved it runs (%v to %v after run started), want some after it, or they test only a cancel during start-up",
				name, s.cancels, short(s.earliest), short(s.latest))
		}
		s.mu.Unlock()
	}
	if lost != "" && !c.failed {
		logf(c.tb, "%s\n%s", lost, c.startupAdvice())
	}
	if vacuous == "" || c.failed {
		return
	}
	skipVacuous(c.tb, "exectest: early-cancel checks of %s: got %d in which the fixture never started, want it to start in at least one, so the checks pass vacuously\n"+
		"fix: check that run runs d.Argv(), and cancel later (CancelAfterRandom with a later max) or use the default (no cancel option), which waits for the proof of life\nthe fixture (this check): %s",
		vacuous, n, snap)
}

// startupAdvice measures the fixture's start-up and says how to widen
// the cancel window past it.
func (c *check) startupAdvice() string {
	c.tb.Helper()
	took, err := c.d.startupTime(c.tb)
	if err != nil {
		return fmt.Sprintf("the fixture's start-up could not be measured: %v\nfix: cancel later (CancelAfterRandom with a later max), or use the default (no cancel option), which waits for the proof of life", err)
	}
	// Most cancels of the window then come after the proof, even when
	// run's own start-up or the machine's load adds to it.
	upTo := max(4*took, c.cfg.Delay+2*took).Truncate(time.Millisecond) + time.Millisecond
	return fmt.Sprintf("the fixture's start-up, measured now, started directly rather than by run: %v from its start to the descendant's proof of life (run's own start-up comes on top)\n"+
		"fix: cancel over a window that spans it: exectest.CancelAfterRandom(%s, %s)", short(took), goDuration(c.cfg.Delay), goDuration(upTo))
}

// goDuration writes d as Go source, for a fix line: 0, 20*time.Millisecond.
func goDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Second == 0:
		return fmt.Sprintf("%d*time.Second", d/time.Second)
	case d%time.Millisecond == 0:
		return fmt.Sprintf("%d*time.Millisecond", d/time.Millisecond)
	}
	return fmt.Sprintf("%d*time.Microsecond", d/time.Microsecond)
}

// startupTime starts a fixture of d's shape directly, outside the code
// under test, and measures how long it takes from its start to the
// descendant's proof of life; then it kills it.
func (d *Fixture) startupTime(tb testing.TB) (time.Duration, error) {
	tb.Helper()
	m := NewFixture(tb, d.cfg)
	m.claim(tb)
	// Released as a check releases its own fixture: after the wait below.
	defer m.release()
	cmd := exec.Command(m.argv[0], m.argv[1:]...) // stdio /dev/null: no pipe, no copy goroutine
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	// The launcher shape proves it runs only once the direct child is
	// reaped: wait for it meanwhile.
	waited := make(chan struct{})
	go func() {
		defer close(waited)
		cmd.Wait()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), deadline(tb, DefaultProofTimeout))
	err := m.WaitAlive(ctx)
	took := time.Since(start)
	cancel()
	kerr := m.killAll()
	<-waited
	if err != nil {
		return 0, err
	}
	return took, kerr
}
