//go:build linux

package check_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
)

// manyChecks is how many checks BenchmarkManyChecks runs in one test.
const manyChecks = 1000

// BenchmarkManyChecks runs manyChecks passing checks one after the other
// in one test context (the *testing.B, whose cleanups run only at its
// end), as a loop of checks in one test does, and reports whether their
// cost stays flat: the milliseconds per check of the first 200 and of the
// last 200 and their ratio (target: last/first <= 1.1), and what the test
// process holds at check 100 and at check 1,000, counted from before the
// first check: descriptors, zombie children, goroutines, KiB of heap in
// use. What a check holds is released when it ends, so these stay flat.
//
// It runs without GODEBUG=execwait, which this package's TestMain sets:
// with it, os/exec puts a finalizer on every Cmd, and a Cmd from
// exec.CommandContext refers to itself (its Cancel calls its Process's
// Kill), so the runtime never runs that finalizer nor frees the Cmd, and
// each check would keep the runner's Cmd and all it reaches (its Args and
// output buffer, its context, the cancelpolicy group): about 5.5 KB that
// are os/exec's and the code under test's, not the toolkit's, kept as
// well by a loop of bare exec.CommandContext runs with no exectest.
//
//	go test -run '^$' -bench BenchmarkManyChecks -benchtime 1x .
func BenchmarkManyChecks(b *testing.B) {
	defer withoutExecwait()()
	for b.Loop() {
		base := heldNow()
		var first, last time.Duration
		for i := 1; i <= manyChecks; i++ {
			start := time.Now()
			d := exectest.NewDescendant(b)
			if r := exectest.AssertCancel(b, d, systemtest.Policy(d.Argv())); r.Failed {
				b.Fatalf("check %d: got %+v, want passed", i, r)
			}
			took := time.Since(start)
			switch {
			case i <= 200:
				first += took
			case i > manyChecks-200:
				last += took
			}
			if i == 100 || i == manyChecks {
				reportHeld(b, i, base, heldNow())
			}
		}
		b.ReportMetric(msPerCheck(first, 200), "first200-ms/check")
		b.ReportMetric(msPerCheck(last, 200), "last200-ms/check")
		b.ReportMetric(float64(last)/float64(first), "last/first")
	}
}

// withoutExecwait turns GODEBUG's execwait off until the returned
// function is called: the runtime reads GODEBUG again when it is set.
func withoutExecwait() (restore func()) {
	was, had := os.LookupEnv("GODEBUG")
	var kept []string
	for s := range strings.SplitSeq(was, ",") {
		if s != "" && !strings.HasPrefix(s, "execwait=") {
			kept = append(kept, s)
		}
	}
	os.Setenv("GODEBUG", strings.Join(kept, ","))
	return func() {
		if had {
			os.Setenv("GODEBUG", was)
		} else {
			os.Unsetenv("GODEBUG")
		}
	}
}

// reportHeld reports what the test process holds after check i, beyond
// what it held at base.
func reportHeld(b *testing.B, i int, base, now held) {
	b.Helper()
	n := strconv.Itoa(i)
	b.ReportMetric(float64(now.fds-base.fds), "fds@"+n)
	b.ReportMetric(float64(now.zombies-base.zombies), "zombies@"+n)
	b.ReportMetric(float64(now.goroutines-base.goroutines), "goroutines@"+n)
	b.ReportMetric((float64(now.heap)-float64(base.heap))/1024, "heapKiB@"+n)
}
