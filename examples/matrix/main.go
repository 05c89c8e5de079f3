// Command matrix measures, live on this machine, how each way of running a
// command under a context stops it on cancel, in each environment: one row
// per variant and environment, with the time from the cancel to the
// return, the processes that survived, the goroutines leaked, a verdict
// and why. Each cell is one exectest.AssertCancel.
//
// -format shapes is the tree shapes against the fixes, in markdown.
//
// The text format keeps each line within 120 columns, wrapping the
// reasons, and ends with a summary: the verdicts per variant, then one
// line with the cells and their verdicts.
//
//	go run ./examples/matrix [-format text|markdown|json|shapes] [-runs N] [-bound D] [-lifetime D]
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/examples/runners"
	"github.com/exectest/exectest/fixtures"
	"github.com/exectest/exectest/proctest"
	"github.com/exectest/exectest/recorder"
)

func main() {
	fixtures.Dispatch() // this binary is also the hermetic fixture
	// Run as go run does, the binary is in the build cache: its path
	// says nothing to the user.
	flag.CommandLine.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usageLine)
		flag.PrintDefaults()
	}
	format := flag.String("format", "text", "output: text, markdown, json, or shapes (the tree shapes x the fixes, markdown)")
	runs := flag.Int("runs", 1, "runs per cell: the elapsed time is their median, with min-max")
	bound := flag.Duration("bound", time.Second, "how soon after cancel a variant must return")
	lifetime := flag.Duration("lifetime", 20*time.Second, "how long the descendant lives unless killed")
	flag.Parse()
	write, ok := map[string]func(*os.File, machine, []row) error{
		"text":     func(f *os.File, m machine, r []row) error { return writeText(f, m, r) },
		"markdown": func(f *os.File, m machine, r []row) error { return writeMarkdown(f, m, r) },
		"json":     func(f *os.File, m machine, r []row) error { return writeJSON(f, m, r) },
		"shapes":   func(f *os.File, m machine, r []row) error { return writeShapes(f, m, r) },
	}[*format]
	switch {
	case !ok:
		fail("-format: got %q, want text, markdown, json or shapes", *format)
	case *runs < 1:
		fail("-runs: got %d, want at least 1", *runs)
	case *bound <= 0:
		fail("-bound: got %v, want > 0", *bound)
	case *lifetime <= *bound:
		fail("-lifetime: got %v, want more than -bound (%v), or a hang cannot show", *lifetime, *bound)
	}
	if len(flag.Args()) > 0 {
		fail("arguments: got %q, want none", flag.Args())
	}

	rows := measureAll(*bound, *lifetime, *runs, newProgress(os.Stderr))
	if err := write(os.Stdout, describeMachine(*bound, *runs), rows); err != nil {
		fail("%v", err)
	}
}

// usageLine heads the usage: the command as the user runs it.
const usageLine = "usage: go run ./examples/matrix [-format text|markdown|json|shapes] [-runs N] [-bound D] [-lifetime D]\n"

// measureAll measures every variant in every environment, runs times
// each, one cell at a time so that cells do not slow each other down.
func measureAll(bound, lifetime time.Duration, runs int, progress func(done, total int)) []row {
	return measureCells(bound, lifetime, runs, 1, progress)
}

// measureCells measures the cells, up to parallel at once: the verdicts
// hold whatever runs beside them, the timings less so.
func measureCells(bound, lifetime time.Duration, runs, parallel int, progress func(done, total int), opts ...exectest.Option) []row {
	type cell struct {
		v runners.Variant
		e env
	}
	var cells []cell
	envWhy, variantWhy := map[string]string{}, map[string]string{} // "" where it runs
	for _, v := range runners.All {
		if v.Unavailable != nil {
			variantWhy[v.Name] = v.Unavailable()
		}
	}
	for _, e := range envs() {
		envWhy[e.name] = e.unavailable()
		for _, v := range runners.All {
			cells = append(cells, cell{v, e})
		}
	}
	rows := make([]row, len(cells))
	sem := make(chan struct{}, parallel)
	var mu sync.Mutex
	var wg sync.WaitGroup
	done := 0
	for i, c := range cells {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r := row{Variant: c.v.Name, Env: c.e.name}
			// The env's reason first: it holds for the whole row.
			if w := cmp.Or(envWhy[c.e.name], variantWhy[c.v.Name]); w != "" {
				r.Verdict, r.Why = "UNAVAILABLE", w
			} else {
				var samples []sample
				for range runs {
					samples = append(samples, measure(c.v, c.e, bound, lifetime, opts...))
				}
				r.summarize(samples, bound)
			}
			rows[i] = r
			mu.Lock()
			done++
			progress(done, len(cells))
			mu.Unlock()
		})
	}
	wg.Wait()
	return rows
}

// sample is one check's outcome.
type sample struct {
	verdict     string
	elapsed     time.Duration
	hung        bool
	survivors   int
	goroutines  int
	descriptors int
	// orphanedInits counts the inits of sandboxes that outlived their
	// maker (see exectest.Result.OrphanedInits).
	orphanedInits int
	why           string
}

// measure runs one exectest.AssertCancel of variant v in env e, on a
// recording testing.TB.
func measure(v runners.Variant, e env, bound, lifetime time.Duration, opts ...exectest.Option) sample {
	var res exectest.Result
	rec := recorder.Run(nil, v.Name+" in "+e.name, func(tb testing.TB) {
		d := exectest.NewDescendant(tb, append([]exectest.DescendantOption{exectest.Lifetime(lifetime)}, e.opts...)...)
		res = exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			return v.Run(ctx, append(append([]string(nil), e.wrap...), d.Argv()...))
		}, append([]exectest.Option{exectest.Within(bound)}, opts...)...)
	})
	s := sample{
		verdict:       strings.ToUpper(rec.Verdict()),
		elapsed:       res.Elapsed,
		hung:          res.Hung,
		survivors:     len(res.Survivors),
		goroutines:    res.LeakedGoroutines,
		descriptors:   len(res.Descriptors),
		orphanedInits: len(res.OrphanedInits),
	}
	if res.Hung {
		s.survivors = fixtureHolders(res)
	}
	s.why = why(rec, res, bound)
	return s
}

// fixtureHolders counts the fixture's processes that held the pipe at the
// bound: they would have survived the cancel for their whole lifetime.
func fixtureHolders(res exectest.Result) int {
	n := 0
	for _, p := range res.Holders {
		if roleOf(p).fixture {
			n++
		}
	}
	return n
}

// why says in a few words what the check found.
func why(rec *recorder.T, res exectest.Result, bound time.Duration) string {
	if rec.Verdict() == recorder.Skip {
		return firstLine(strings.Join(rec.Skips(), ""))
	}
	var parts []string
	if res.Hung {
		parts = append(parts, fmt.Sprintf("hung: %s held the output pipe past the %v bound", names(res.Holders), bound))
	}
	if len(res.Survivors) > 0 {
		parts = append(parts, fmt.Sprintf("returned, but left %s running", names(res.Survivors)))
	}
	if len(res.Goroutines) > 0 {
		parts = append(parts, "leaked os/exec goroutines (run gave up without Wait)")
	}
	if len(res.Descriptors) > 0 {
		parts = append(parts, "left the command's pipe open")
	}
	if len(parts) == 0 && rec.Verdict() == recorder.Fail {
		return firstLine(strings.Join(rec.Errors(), ""))
	}
	if len(parts) == 0 {
		return "returned in time, nothing left running"
	}
	return strings.Join(parts, "; ")
}

// names says which processes, in a few words: "the descendant (sleep 20)".
func names(ps []proctest.Process) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("the %s (%s)", roleOf(p).noun, short(p.Cmdline)))
	}
	if len(out) == 0 {
		return "a process"
	}
	return strings.Join(out, " and ")
}

// short is a command line's program name and first argument.
func short(cmdline string) string {
	f := strings.Fields(cmdline)
	if len(f) == 0 {
		return cmdline
	}
	f[0] = filepath.Base(f[0])
	return strings.Join(f[:min(2, len(f))], " ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimPrefix(s, "exectest: ")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "matrix: "+format+"\n", args...)
	os.Exit(2)
}
