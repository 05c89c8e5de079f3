package check_test

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/check"
)

// BenchmarkCancelCheckPhases splits a passing check into its phases and
// sets it beside the floor (see floorCheck), in one run: each iteration
// is a round of blockSize toolkit checks and blockSize floor checks, the
// first of the two swapped every round. It reports medians: of the
// per-round ratio toolkit/floor, and of each phase over all checks:
//
//   - prepare-ms: NewDescendant, up to the call of run;
//   - proof-ms: run called to the cancel, which comes at the proof of
//     life; proof-over-start-ms is it less the floor's own start
//     (floor-start-ms: start to the sleep seen);
//   - cancel-to-return-ms: the cancel to run's return;
//   - after-return-ms: run's return to AssertCancel's verdict;
//   - cleanup-ms: the verdict to the end of the test's cleanups (the
//     fixture's release);
//   - floor-asleep-ms: start to the floor's sleep asleep (state S), past
//     its loader, as the proof waits for it, from floor checks that wait
//     for that (a third block of each round, the three blocks taking
//     turns to come first); proof-over-asleep-ms is proof-ms less it:
//     what the proof costs beyond the sleep's own start-up;
//   - toolkit/floor-asleep (and floor-asleep-ms/check): the per-round
//     ratio against those floor checks, start to reap: the bare work with
//     the proof's one wait the floor leaves out (the sleep's loader);
//   - forks/check and floor-forks/check: processes created during one
//     check, from the "processes" counter of /proc/stat, which counts
//     every fork and clone on the machine: exact on an otherwise idle
//     machine, an upper bound on a busy one.
//
// Targets (issue 20): toolkit/floor <= 1.5, after-return-ms <= 0.5,
// proof-over-start-ms <= 1. The first and the last cannot be met while
// the proof waits past the sleep's loader, which the floor does not (see
// docs/benchmarks.md, "Fifth round"): toolkit/floor-asleep and
// proof-over-asleep-ms are the same targets with that wait on both sides.
//
//	go test -run '^$' -bench 'BenchmarkCancelCheckPhases$' -benchtime 6x .
func BenchmarkCancelCheckPhases(b *testing.B) {
	if err := haveProcChildren(); err != nil {
		b.Skipf("floor: needs /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): %v", err)
	}
	if _, err := forkCount(); err != nil {
		b.Skipf("forks per check: needs the processes line of /proc/stat: %v", err)
	}
	var at map[string]time.Time
	restore := check.SetPhaseHook(func(phase string) {
		switch phase {
		case "start", "cancel", "returned", "end": // on the check's goroutine
			at[phase] = time.Now()
		}
	})
	defer restore()
	// One of each first, untimed (see BenchmarkCancelCheck).
	at = map[string]time.Time{}
	toolkitCheck(b)
	floorCheck(b)

	var (
		ratios                                   []float64
		toolkit, floor, floorStart               []float64
		prepare, proof, toReturn, after, cleanup []float64
		forks, floorForks                        []float64
		floorAsleep, floorAsleepTotal            []float64
		asleepRatios                             []float64
	)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	runToolkit := func() (total time.Duration) {
		for range blockSize {
			at = map[string]time.Time{}
			f0, _ := forkCount()
			began := time.Now()
			toolkitCheck(b)
			took := time.Since(began)
			f1, _ := forkCount()
			for _, p := range []string{"start", "cancel", "returned", "end"} {
				if at[p].IsZero() {
					b.Fatalf("phase %q: got no call of the phase hook, want one per check", p)
				}
			}
			toolkit = append(toolkit, ms(took))
			prepare = append(prepare, ms(at["start"].Sub(began)))
			proof = append(proof, ms(at["cancel"].Sub(at["start"])))
			toReturn = append(toReturn, ms(at["returned"].Sub(at["cancel"])))
			after = append(after, ms(at["end"].Sub(at["returned"])))
			cleanup = append(cleanup, ms(began.Add(took).Sub(at["end"])))
			forks = append(forks, float64(f1-f0))
			total += took
		}
		return total
	}
	// The floor that waits, as the proof does, until its sleep sleeps:
	// past its loader, which the floor does not wait for.
	runFloorAsleep := func() (total time.Duration) {
		for range blockSize {
			began := time.Now()
			asleep := floorCheckUntil(b, waitForSleepAsleep)
			took := time.Since(began)
			floorAsleep = append(floorAsleep, ms(asleep))
			floorAsleepTotal = append(floorAsleepTotal, ms(took))
			total += took
		}
		return total
	}
	runFloor := func() (total time.Duration) {
		for range blockSize {
			f0, _ := forkCount()
			began := time.Now()
			started := floorCheckTimed(b)
			took := time.Since(began)
			f1, _ := forkCount()
			floor = append(floor, ms(took))
			floorStart = append(floorStart, ms(started))
			floorForks = append(floorForks, float64(f1-f0))
			total += took
		}
		return total
	}
	b.ResetTimer()
	for round := 0; b.Loop(); round++ {
		// The three blocks in turn, each first in one round of three.
		var tk, fl, fa time.Duration
		for i := range 3 {
			switch (round + i) % 3 {
			case 0:
				tk = runToolkit()
			case 1:
				fl = runFloor()
			case 2:
				fa = runFloorAsleep()
			}
		}
		ratios = append(ratios, float64(tk)/float64(fl))
		asleepRatios = append(asleepRatios, float64(tk)/float64(fa))
	}
	b.ReportMetric(median(ratios), "toolkit/floor")
	b.ReportMetric(median(toolkit), "toolkit-ms/check")
	b.ReportMetric(median(floor), "floor-ms/check")
	b.ReportMetric(median(floorStart), "floor-start-ms")
	b.ReportMetric(median(prepare), "prepare-ms")
	b.ReportMetric(median(proof), "proof-ms")
	b.ReportMetric(median(proof)-median(floorStart), "proof-over-start-ms")
	b.ReportMetric(median(floorAsleep), "floor-asleep-ms")
	b.ReportMetric(median(floorAsleepTotal), "floor-asleep-ms/check")
	b.ReportMetric(median(asleepRatios), "toolkit/floor-asleep")
	b.ReportMetric(median(proof)-median(floorAsleep), "proof-over-asleep-ms")
	b.ReportMetric(median(toReturn), "cancel-to-return-ms")
	b.ReportMetric(median(after), "after-return-ms")
	b.ReportMetric(median(cleanup), "cleanup-ms")
	b.ReportMetric(median(forks), "forks/check")
	b.ReportMetric(median(floorForks), "floor-forks/check")
}

// BenchmarkFloor is the bare work a check checks, by itself: start
// sh -c 'sleep 20 & wait' in a group of its own, see the sleep exist,
// kill the group, reap (see floorCheck).
//
//	go test -run '^$' -bench 'BenchmarkFloor$' -benchtime 100x .
func BenchmarkFloor(b *testing.B) {
	if err := haveProcChildren(); err != nil {
		b.Skipf("floor: needs /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): %v", err)
	}
	floorCheck(b)
	var total, start []float64
	for b.Loop() {
		began := time.Now()
		started := floorCheckTimed(b)
		total = append(total, float64(time.Since(began))/float64(time.Millisecond))
		start = append(start, float64(started)/float64(time.Millisecond))
	}
	b.ReportMetric(median(total), "floor-ms/check")
	b.ReportMetric(median(start), "floor-start-ms")
}

// forkCount is the number of processes (and threads) created on the
// machine since boot: the "processes" line of /proc/stat.
func forkCount() (int64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("processes ")); ok {
			return strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		}
	}
	return 0, fmt.Errorf("no processes line in /proc/stat")
}
