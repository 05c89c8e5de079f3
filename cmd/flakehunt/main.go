// Command flakehunt hunts flaky tests: it runs go test -json -count=N while
// K processes of its own keep the CPUs busy, and reports for every test
// (subtests included) how its runs ended and how their duration spread.
// A race that an idle laptop always wins is lost on a busy CI runner; load
// brings that runner to the laptop.
//
// It runs on Linux. Install it, or run it from any module:
//
//	go install github.com/exectest/exectest/cmd/flakehunt@latest
//	go run github.com/exectest/exectest/cmd/flakehunt@latest -count 50 ./...
//
// In a module that requires exectest, the path without @latest runs the
// version its go.mod names.
//
// Usage:
//
//	flakehunt [-count N] [-load K] [-bound D] [-json] [packages and go test flags...]
//
// Flags before the first non-flag argument are flakehunt's:
//
//	-count N  runs of every test (go test -count), default 20
//	-load K   CPU burners, default the number of CPUs; 0 for no load
//	-bound D  a pass or fail slower than D is an outlier, default 0 (no check)
//	-json     print one JSON document instead of the table
//
// Everything from the first non-flag argument on, and everything after a
// literal --, goes to go test unchanged; so a go test flag goes after the
// packages or after --.
//
// Recipe: hunt with 50 runs under 4 burners, then again with the race
// detector and a bound for the slow tail:
//
//	flakehunt -count 50 -load 4 ./...
//	flakehunt -count 50 -bound 2s -- -race -run TestCancel ./...
//
// The table has one row per package and test, with the runs, passes,
// failures and skips, the min, median, p99 (nearest rank) and max of the
// durations go test reported for passes and failures, and the outliers.
// A package that fails with no failing test (a build failure, a panic in
// TestMain) is the test "(package)". The last 20 lines of output of the
// first failure of each row follow the table, and the last line is
// "N passed, N failed, N skipped", counted over all runs.
//
// With -json the output is instead one document: {"command", "load",
// "cpus", "bound_ms", "tests": [{"package", "test", "runs", "pass",
// "fail", "skip", "min_ms", "median_ms", "p99_ms", "max_ms", "outliers",
// "failure_output"}], "passed", "failed", "skipped"}; a test with no timed
// run has null durations, and failure_output is a list of lines.
//
// Exit status: 0 when every run passed or skipped and none was an outlier,
// 1 on any failure or outlier, 2 on a usage error or when go test could
// not run, 130 when interrupted (SIGINT or SIGTERM: go test's process
// group gets SIGINT, then SIGKILL 5 s later, which flakehunt says on
// stderr ("go test still ran 5s after SIGINT"), and the partial table is
// printed).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	// A burner is this binary re-executed; it must start spinning before
	// anything else looks at its argv.
	maybeBurn()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	count  int
	load   int
	bound  time.Duration
	json   bool
	goArgs []string
}

const usageText = `usage: flakehunt [-count N] [-load K] [-bound D] [-json] [packages and go test flags...]
  -count N  runs of every test (go test -count) (default 20)
  -load K   CPU burners; 0 for no load (default the number of CPUs)
  -bound D  a run slower than D is an outlier; 0 for no check (default 0)
  -json     print one JSON document instead of the table
go test flags go after the packages or after --.
`

// errUsage marks errors whose message is complete and exit status 2.
var errUsage = errors.New("usage")

func parseArgs(args []string) (config, error) {
	cfg := config{}
	fs := flag.NewFlagSet("flakehunt", flag.ContinueOnError)
	// The flag package's messages and usage do not follow our form; we
	// print our own.
	fs.SetOutput(io.Discard)
	fs.IntVar(&cfg.count, "count", 20, "")
	fs.IntVar(&cfg.load, "load", runtime.NumCPU(), "")
	fs.DurationVar(&cfg.bound, "bound", 0, "")
	fs.BoolVar(&cfg.json, "json", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, err
		}
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
			return cfg, fmt.Errorf("flakehunt: flag: got %s, want one of -count -load -bound -json (go test flags go after the packages or after --): %w", name, errUsage)
		}
		return cfg, fmt.Errorf("flakehunt: %v: %w", err, errUsage)
	}
	if cfg.count < 1 {
		return cfg, fmt.Errorf("flakehunt: -count: got %d, want >= 1: %w", cfg.count, errUsage)
	}
	if cfg.load < 0 {
		return cfg, fmt.Errorf("flakehunt: -load: got %d, want >= 0: %w", cfg.load, errUsage)
	}
	if cfg.bound < 0 {
		return cfg, fmt.Errorf("flakehunt: -bound: got %v, want >= 0: %w", cfg.bound, errUsage)
	}
	cfg.goArgs = fs.Args()
	// go test keeps the last -count it sees, so one among the passthrough
	// flags would silently override ours and make the header lie.
	for _, a := range cfg.goArgs {
		if a == "-count" || a == "--count" || strings.HasPrefix(a, "-count=") || strings.HasPrefix(a, "--count=") {
			return cfg, fmt.Errorf("flakehunt: go test flags: got %s, want flakehunt's -count before the packages: %w", a, errUsage)
		}
	}
	return cfg, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, stdout, stderr)
}

// runContext is run with the interrupt as a context, so that tests can
// interrupt without signalling the test process.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stderr = syncWriter(stderr)
	cfg, err := parseArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stderr, usageText)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, strings.TrimSuffix(err.Error(), ": "+errUsage.Error()))
		fmt.Fprint(stderr, usageText)
		return 2
	}

	goArgs := append([]string{"test", "-json", "-count=" + strconv.Itoa(cfg.count)}, cfg.goArgs...)
	hdr := header{
		command: append([]string{"go"}, goArgs...),
		load:    cfg.load,
		cpus:    runtime.NumCPU(),
		bound:   cfg.bound,
	}
	if !cfg.json {
		// Printed before the run, which can take minutes, so that the user
		// sees at once what is running.
		writeHeader(stdout, hdr)
	}

	b, err := startBurners(cfg.load)
	if err != nil {
		fmt.Fprintf(stderr, "flakehunt: start burners: %v\n", err)
		return 2
	}
	stopBurners := func() {
		if err := b.stop(); err != nil {
			fmt.Fprintf(stderr, "flakehunt: stop burners: %v\n", err)
		}
	}
	defer stopBurners()

	agg := newAggregator(cfg.bound)
	began := time.Now()
	res, err := runGoTest(ctx, goArgs, agg, stderr)
	hdr.wall = time.Since(began)
	// The report is quick, but the load has no reason to outlive go test.
	stopBurners()
	if err != nil {
		fmt.Fprintf(stderr, "flakehunt: %v\n", err)
		return 2
	}

	rows, tot := agg.summaries()
	if cfg.json {
		if err := writeJSON(stdout, hdr, rows, tot); err != nil {
			fmt.Fprintf(stderr, "flakehunt: write report: %v\n", err)
			return 2
		}
	} else {
		writeText(stdout, hdr, rows, tot)
	}

	if res.interrupted {
		fmt.Fprintln(stderr, "flakehunt: interrupted: the results are partial")
		return 130
	}
	if res.decodeErr != nil {
		fmt.Fprintf(stderr, "flakehunt: read go test output: %v\n", res.decodeErr)
		return 1
	}
	if res.exitCode != 0 && tot.failed == 0 {
		// No test failed, yet go test did: a bad pattern or flag, reported
		// on its stderr above and not in its JSON.
		fmt.Fprintf(stderr, "flakehunt: go test: got exit status %d with no failing test, want 0 (see its stderr)\n", res.exitCode)
		if res.exitCode == 2 {
			return 2
		}
		return 1
	}
	if tot.failed > 0 || tot.outliers > 0 {
		return 1
	}
	return 0
}
