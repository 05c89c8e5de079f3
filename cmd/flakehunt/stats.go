package main

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// packageTest is the name of the row for a package that failed with no
// failing test: a build failure, a panic or os.Exit in TestMain.
const packageTest = "(package)"

// tailLines is how much output of a failure is kept: enough for a
// message and a short stack, not a whole -v log.
const tailLines = 20

type key struct{ pkg, test string }

type testStats struct {
	pass, fail, skip int
	durations        []time.Duration
	// open counts runs started and not yet ended; with -count and
	// parallel subtests several can be open at once.
	open    int
	tail    tail
	failure []string // the tail of the first failure
}

func (t *testStats) failed(output []string) {
	t.fail++
	if t.failure == nil {
		t.failure = slices.Clone(output)
		if t.failure == nil {
			t.failure = []string{}
		}
	}
}

type packageState struct {
	tail tail
	// failedTests counts test failures since the package's start, which
	// tell a package failure explained by its tests from one that is not.
	failedTests int
}

type aggregator struct {
	bound    time.Duration
	tests    map[key]*testStats
	packages map[string]*packageState
	// build holds compiler output by import path, for the package whose
	// fail event names it in FailedBuild.
	build map[string]*tail
	// interrupted is set before go test gets our SIGINT: the runs that
	// signal cuts short say nothing about the tests.
	interrupted atomic.Bool
}

func newAggregator(bound time.Duration) *aggregator {
	return &aggregator{
		bound:    bound,
		tests:    map[key]*testStats{},
		packages: map[string]*packageState{},
		build:    map[string]*tail{},
	}
}

func (a *aggregator) test(pkg, name string) *testStats {
	k := key{pkg, name}
	t := a.tests[k]
	if t == nil {
		t = &testStats{}
		a.tests[k] = t
	}
	return t
}

func (a *aggregator) pkg(name string) *packageState {
	p := a.packages[name]
	if p == nil {
		p = &packageState{}
		a.packages[name] = p
	}
	return p
}

func (a *aggregator) add(ev event) {
	switch {
	case ev.Action == "build-output":
		b := a.build[ev.ImportPath]
		if b == nil {
			b = &tail{}
			a.build[ev.ImportPath] = b
		}
		b.add(ev.Output)
	case ev.Package == "":
	case ev.Test == "":
		a.addPackage(ev)
	default:
		a.addTest(ev)
	}
}

func (a *aggregator) addTest(ev event) {
	t := a.test(ev.Package, ev.Test)
	switch ev.Action {
	case "run":
		t.open++
		t.tail.reset()
	case "output":
		t.tail.add(ev.Output)
	case "pass", "fail", "skip":
		t.open = max(t.open-1, 0)
		d := time.Duration(math.Round(ev.Elapsed * float64(time.Second)))
		switch ev.Action {
		case "pass":
			t.pass++
			t.durations = append(t.durations, d)
		case "fail":
			t.failed(t.tail.lines)
			t.durations = append(t.durations, d)
			a.pkg(ev.Package).failedTests++
		case "skip":
			t.skip++
		}
	}
}

func (a *aggregator) addPackage(ev event) {
	p := a.pkg(ev.Package)
	switch ev.Action {
	case "start":
		p.tail.reset()
		p.failedTests = 0
	case "output":
		p.tail.add(ev.Output)
	case "fail":
		if a.interrupted.Load() {
			return
		}
		// A test still running when its binary died (os.Exit, a timeout,
		// a crash in another goroutine) gets no end event of its own.
		for k, t := range a.tests {
			if k.pkg != ev.Package || t.open == 0 {
				continue
			}
			out := append(slices.Clone(t.tail.lines), "(no result: the test binary exited during this run)")
			for range t.open {
				t.failed(out)
				p.failedTests++
			}
			t.open = 0
		}
		if p.failedTests > 0 {
			return
		}
		var out []string
		if b := a.build[ev.FailedBuild]; ev.FailedBuild != "" && b != nil {
			out = append(out, b.lines...)
		}
		out = append(out, p.tail.lines...)
		if len(out) > tailLines {
			out = out[len(out)-tailLines:]
		}
		a.test(ev.Package, packageTest).failed(out)
	}
}

// tail keeps the last tailLines lines of a test's output, joining the
// pieces test2json splits long or unterminated lines into.
type tail struct {
	lines   []string
	partial bool
}

func (t *tail) reset() { *t = tail{} }

func (t *tail) add(out string) {
	for out != "" {
		line, rest, complete := strings.Cut(out, "\n")
		out = rest
		if t.partial && len(t.lines) > 0 {
			t.lines[len(t.lines)-1] += line
		} else if !framing(line) {
			t.lines = append(t.lines, line)
		}
		t.partial = !complete
	}
	if len(t.lines) > tailLines {
		t.lines = slices.Delete(t.lines, 0, len(t.lines)-tailLines)
	}
}

// framing tells test2json's own bookkeeping lines, which would crowd the
// tail out of the lines that say what went wrong.
func framing(line string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// summary is one row of the report.
type summary struct {
	pkg, test              string
	runs, pass, fail, skip int
	// timed is false when no run passed or failed with a duration.
	timed                 bool
	min, median, p99, max time.Duration
	outliers              int
	failure               []string
}

type totals struct {
	passed, failed, skipped, outliers int
}

// summaries returns the rows sorted by package, then test, and the
// counts over all runs.
func (a *aggregator) summaries() ([]summary, totals) {
	var rows []summary
	var tot totals
	for k, t := range a.tests {
		runs := t.pass + t.fail + t.skip
		if runs == 0 {
			continue // only seen running when go test was interrupted
		}
		s := summary{
			pkg: k.pkg, test: k.test,
			runs: runs, pass: t.pass, fail: t.fail, skip: t.skip,
			failure: t.failure,
		}
		if len(t.durations) > 0 {
			d := slices.Sorted(slices.Values(t.durations))
			s.timed = true
			s.min, s.max = d[0], d[len(d)-1]
			s.median = nearestRank(d, 50)
			s.p99 = nearestRank(d, 99)
			if a.bound > 0 {
				for _, x := range d {
					if x > a.bound {
						s.outliers++
					}
				}
			}
		}
		tot.passed += s.pass
		tot.failed += s.fail
		tot.skipped += s.skip
		tot.outliers += s.outliers
		rows = append(rows, s)
	}
	slices.SortFunc(rows, func(x, y summary) int {
		return cmp.Or(cmp.Compare(x.pkg, y.pkg), cmp.Compare(x.test, y.test))
	})
	return rows, tot
}

// nearestRank returns the p-th percentile of sorted by the nearest-rank
// method: a duration that some run actually took, never an interpolation.
// Integer arithmetic, because 0.99*100 is not 99 in floating point.
func nearestRank(sorted []time.Duration, p int) time.Duration {
	n := len(sorted)
	rank := (p*n + 99) / 100
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}
