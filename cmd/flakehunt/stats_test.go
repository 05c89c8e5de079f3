package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNearestRank(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		var d []time.Duration
		for _, x := range xs {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, tc := range []struct {
		sorted []time.Duration
		p      int
		want   time.Duration
	}{
		{ms(7), 50, 7 * time.Millisecond},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(1, 2), 50, 1 * time.Millisecond},
		{ms(1, 2), 99, 2 * time.Millisecond},
		{ms(1, 2, 3, 4, 5), 50, 3 * time.Millisecond},
		{ms(hundred...), 50, 50 * time.Millisecond},
		{ms(hundred...), 99, 99 * time.Millisecond},
		{ms(append(hundred, 101)...), 99, 100 * time.Millisecond},
	} {
		if got := nearestRank(tc.sorted, tc.p); got != tc.want {
			t.Errorf("nearestRank(%d values, p%d): got %v, want %v", len(tc.sorted), tc.p, got, tc.want)
		}
	}
}

func row(t *testing.T, rows []summary, pkg, test string) summary {
	t.Helper()
	for _, r := range rows {
		if r.pkg == pkg && r.test == test {
			return r
		}
	}
	t.Fatalf("no row for %s %s in %+v", pkg, test, rows)
	return summary{}
}

func TestAggregate(t *testing.T) {
	a := newAggregator(95 * time.Millisecond)
	ev := func(action, pkg, test string, elapsed float64, output string) {
		a.add(event{Action: action, Package: pkg, Test: test, Elapsed: elapsed, Output: output})
	}

	ev("start", "p", "", 0, "")
	// 100 passes of 1..100ms, shuffled: stats must not depend on order.
	order := make([]int, 100)
	for i := range order {
		order[i] = (i*37)%100 + 1
	}
	for _, ms := range order {
		ev("run", "p", "TestTimed", 0, "")
		ev("pass", "p", "TestTimed", float64(ms)/1000, "")
	}
	// A parent with a parallel subtest that fails once and passes once.
	for i := range 2 {
		ev("run", "p", "TestParent", 0, "")
		ev("run", "p", "TestParent/sub", 0, "")
		ev("output", "p", "TestParent/sub", 0, "=== RUN   TestParent/sub\n")
		ev("pause", "p", "TestParent/sub", 0, "")
		ev("cont", "p", "TestParent/sub", 0, "")
		if i == 0 {
			ev("output", "p", "TestParent/sub", 0, "    x_test.go:9: got 1, ")
			ev("output", "p", "TestParent/sub", 0, "want 2\n")
			ev("output", "p", "TestParent/sub", 0, "--- FAIL: TestParent/sub (0.20s)\n")
			ev("fail", "p", "TestParent/sub", 0.2, "")
			ev("fail", "p", "TestParent", 0.21, "")
		} else {
			ev("pass", "p", "TestParent/sub", 0.1, "")
			ev("pass", "p", "TestParent", 0.11, "")
		}
	}
	ev("run", "p", "TestSkipped", 0, "")
	ev("skip", "p", "TestSkipped", 0.5, "")
	ev("output", "p", "", 0, "FAIL\tp\t1.0s\n")
	ev("fail", "p", "", 1, "") // explained by TestParent: no (package) row

	// A package whose TestMain panics.
	ev("start", "q", "", 0, "")
	for i := range 25 {
		ev("output", "q", "", 0, fmt.Sprintf("line %d\n", i))
	}
	ev("output", "q", "", 0, "panic: boom in TestMain\n")
	ev("fail", "q", "", 0.01, "")

	// A test whose binary exits under it (os.Exit): no end event.
	ev("start", "r", "", 0, "")
	ev("run", "r", "TestExit", 0, "")
	ev("output", "r", "TestExit", 0, "    r_test.go:3: bye\n")
	ev("fail", "r", "", 0.01, "")

	// A passing package: no row of its own.
	ev("start", "s", "", 0, "")
	ev("run", "s", "TestOK", 0, "")
	ev("pass", "s", "TestOK", 0, "")
	ev("pass", "s", "", 0, "")

	rows, tot := a.summaries()

	var names []string
	for _, r := range rows {
		names = append(names, r.pkg+" "+r.test)
	}
	want := []string{"p TestParent", "p TestParent/sub", "p TestSkipped", "p TestTimed", "q (package)", "r TestExit", "s TestOK"}
	if !slices.Equal(names, want) {
		t.Errorf("rows: got %q, want %q", names, want)
	}

	timed := row(t, rows, "p", "TestTimed")
	if timed.runs != 100 || timed.pass != 100 || !timed.timed ||
		timed.min != time.Millisecond || timed.median != 50*time.Millisecond ||
		timed.p99 != 99*time.Millisecond || timed.max != 100*time.Millisecond || timed.outliers != 5 {
		t.Errorf("TestTimed: got %+v", timed)
	}

	sub := row(t, rows, "p", "TestParent/sub")
	if sub.runs != 2 || sub.pass != 1 || sub.fail != 1 || sub.min != 100*time.Millisecond || sub.max != 200*time.Millisecond || sub.outliers != 2 {
		t.Errorf("TestParent/sub: got %+v", sub)
	}
	if got := strings.Join(sub.failure, "|"); got != "    x_test.go:9: got 1, want 2|--- FAIL: TestParent/sub (0.20s)" {
		t.Errorf("TestParent/sub failure output: got %q", got)
	}
	if parent := row(t, rows, "p", "TestParent"); parent.fail != 1 || parent.pass != 1 {
		t.Errorf("TestParent: got %+v", parent)
	}

	if skipped := row(t, rows, "p", "TestSkipped"); skipped.skip != 1 || skipped.runs != 1 || skipped.timed {
		t.Errorf("TestSkipped: got %+v, want one untimed skip", skipped)
	}

	pkg := row(t, rows, "q", packageTest)
	if pkg.fail != 1 || pkg.runs != 1 || len(pkg.failure) != tailLines || pkg.failure[tailLines-1] != "panic: boom in TestMain" {
		t.Errorf("q (package): got %+v, want 1 failure ending in the panic, %d lines", pkg, tailLines)
	}

	exit := row(t, rows, "r", "TestExit")
	if exit.fail != 1 || len(exit.failure) == 0 || exit.failure[0] != "    r_test.go:3: bye" {
		t.Errorf("r TestExit: got %+v", exit)
	}

	// 100 TestTimed + 1 sub + 1 parent + 1 TestOK passed; 1 sub + 1
	// parent + 1 package + 1 exit failed; outliers over 95ms: 5 timed,
	// 2 sub, 2 parent.
	if tot != (totals{passed: 103, failed: 4, skipped: 1, outliers: 9}) {
		t.Errorf("totals: got %+v", tot)
	}
}

func TestNoBoundNoOutliers(t *testing.T) {
	a := newAggregator(0)
	a.add(event{Action: "run", Package: "p", Test: "T"})
	a.add(event{Action: "pass", Package: "p", Test: "T", Elapsed: 3600})
	rows, tot := a.summaries()
	if rows[0].outliers != 0 || tot.outliers != 0 {
		t.Errorf("bound 0: got %d outliers, want none", tot.outliers)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                       "0s",
		350 * time.Microsecond:  "350µs",
		12 * time.Millisecond:   "12ms",
		1234 * time.Millisecond: "1.2s",
		9990 * time.Millisecond: "10s",
		83 * time.Second:        "1m23s",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v): got %q, want %q", d, got, want)
		}
	}
}
