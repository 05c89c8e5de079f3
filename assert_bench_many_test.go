//go:build linux

package exectest_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/exectest/exectest"
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
//	go test -run '^$' -bench BenchmarkManyChecks -benchtime 1x .
func BenchmarkManyChecks(b *testing.B) {
	for b.Loop() {
		base := heldNow()
		var first, last time.Duration
		for i := 1; i <= manyChecks; i++ {
			start := time.Now()
			d := exectest.NewDescendant(b)
			if r := exectest.AssertCancel(b, d, policy(d.Argv())); r.Failed {
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
