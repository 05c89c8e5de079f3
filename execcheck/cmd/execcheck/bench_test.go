package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkAgainstGoVet times execcheck against go vet on the same
// packages of a module, interleaved, each round:
//
//   - execcheck ./... (no cache of its own) and go vet ./... with its
//     results not cached (a new -printf.funcs, which only names a function
//     no one calls, so vet's work is the same);
//   - go vet -vettool=execcheck ./... with its results not cached (a new
//     build id of the tool each round) and go vet ./..., likewise;
//   - both as go vet runs with their results cached, as a developer's
//     second run is.
//
// It reports the median seconds of each and their ratios. The module is
// EXECCHECK_BENCH_DIR (x/tools in docs/benchmarks.md); from execcheck/,
// the checker's module:
//
//	EXECCHECK_BENCH_DIR=/tmp/x/tools go test -run '^$' -bench AgainstGoVet -benchtime 4x ./cmd/execcheck
func BenchmarkAgainstGoVet(b *testing.B) {
	dir := os.Getenv("EXECCHECK_BENCH_DIR")
	if dir == "" {
		b.Skip("EXECCHECK_BENCH_DIR: not set; want a module directory to analyze (x/tools)")
	}
	bins := b.TempDir()
	build := func(nonce string) string {
		bin := filepath.Join(bins, "execcheck-"+nonce)
		if out, err := exec.Command("go", "build", "-ldflags=-buildid="+nonce, "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build execcheck: %v\n%s", err, out)
		}
		return bin
	}
	// run times one command in dir; execcheck and go vet exit non-zero
	// when they find something, which is no failure here.
	run := func(name string, args ...string) float64 {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start).Seconds()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return d
	}
	warm := build(fmt.Sprintf("warm%d", os.Getpid()))
	run("go", "vet", "./...")
	run("go", "vet", "-vettool="+warm, "./...")
	run(warm, "./...")

	var standalone, vetCold, toolCold, vetWarm, toolWarm []float64
	b.ResetTimer()
	for i := range b.N {
		nonce := fmt.Sprintf("r%d-%d-%d", i, os.Getpid(), time.Now().UnixNano())
		b.StopTimer()
		tool := build(nonce)
		b.StartTimer()
		standalone = append(standalone, run(warm, "./..."))
		vetCold = append(vetCold, run("go", "vet", "-printf.funcs=execcheckBench"+nonce, "./..."))
		toolCold = append(toolCold, run("go", "vet", "-vettool="+tool, "./..."))
		vetWarm = append(vetWarm, run("go", "vet", "./..."))
		toolWarm = append(toolWarm, run("go", "vet", "-vettool="+warm, "./..."))
	}
	b.StopTimer()
	m := func(xs []float64) float64 {
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	b.ReportMetric(m(standalone), "s-execcheck")
	b.ReportMetric(m(vetCold), "s-govet-uncached")
	b.ReportMetric(m(toolCold), "s-vettool-uncached")
	b.ReportMetric(m(vetWarm), "s-govet-cached")
	b.ReportMetric(m(toolWarm), "s-vettool-cached")
	b.ReportMetric(m(standalone)/m(vetCold), "execcheck/govet-uncached")
	b.ReportMetric(m(toolCold)/m(vetCold), "vettool/govet-uncached")
	b.ReportMetric(m(toolWarm)/m(vetWarm), "vettool/govet-cached")
	b.ReportMetric(m(standalone)/m(vetWarm), "execcheck/govet-cached")
	b.Logf("rounds (s): execcheck %.1f; go vet uncached %.1f; vettool uncached %.1f; go vet cached %.2f; vettool cached %.2f",
		standalone, vetCold, toolCold, vetWarm, toolWarm)
}
