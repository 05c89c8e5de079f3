package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

type header struct {
	command []string
	load    int
	cpus    int
	bound   time.Duration
	wall    time.Duration // how long go test ran, load included
}

// rate is test runs (subtests included) per second of wall time: the
// throughput of a hunt, for comparing checks and machines.
func (h header) rate(tot totals) float64 {
	if h.wall <= 0 {
		return 0
	}
	return float64(tot.passed+tot.failed+tot.skipped) / h.wall.Seconds()
}

func writeHeader(w io.Writer, h header) {
	bound := "none"
	if h.bound > 0 {
		bound = formatDuration(h.bound)
	}
	fmt.Fprintf(w, "flakehunt: %s under %d burners on %d CPUs (bound %s)\n", shellJoin(h.command), h.load, h.cpus, bound)
}

// writeText prints the table, the failures' output and the totals line;
// the header was printed before the run.
func writeText(w io.Writer, h header, rows []summary, tot totals) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PACKAGE\tTEST\tRUNS\tPASS\tFAIL\tSKIP\tMIN\tMEDIAN\tP99\tMAX\tOUTLIERS")
	for _, r := range rows {
		durs := []string{"-", "-", "-", "-"}
		if r.timed {
			durs = []string{formatDuration(r.min), formatDuration(r.median), formatDuration(r.p99), formatDuration(r.max)}
		}
		outliers := "-" // no bound, nothing checked: not the same as 0
		if h.bound > 0 {
			outliers = strconv.Itoa(r.outliers)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\n", r.pkg, r.test, r.runs, r.pass, r.fail, r.skip, strings.Join(durs, "\t"), outliers)
	}
	tw.Flush()

	for _, r := range rows {
		if r.fail == 0 {
			continue
		}
		fmt.Fprintf(w, "\n--- FAIL %s %s: %d of %d runs failed; the first failure ended with:\n", r.pkg, r.test, r.fail, r.runs)
		if len(r.failure) == 0 {
			fmt.Fprintln(w, "    (no output)")
		}
		for _, line := range r.failure {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
	if tot.outliers > 0 {
		fmt.Fprintf(w, "\n%d runs slower than the bound %s\n", tot.outliers, formatDuration(h.bound))
	}
	if len(rows) > 0 && (tot.failed > 0 || tot.outliers > 0) {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d test runs in %s: %.1f runs/s\n", tot.passed+tot.failed+tot.skipped, formatDuration(h.wall), h.rate(tot))
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", tot.passed, tot.failed, tot.skipped)
}

type jsonReport struct {
	Command []string   `json:"command"`
	Load    int        `json:"load"`
	CPUs    int        `json:"cpus"`
	BoundMS float64    `json:"bound_ms"`
	WallMS  float64    `json:"wall_ms"`
	RunsPS  float64    `json:"runs_per_second"`
	Tests   []jsonTest `json:"tests"`
	Passed  int        `json:"passed"`
	Failed  int        `json:"failed"`
	Skipped int        `json:"skipped"`
}

type jsonTest struct {
	Package string `json:"package"`
	Test    string `json:"test"`
	Runs    int    `json:"runs"`
	Pass    int    `json:"pass"`
	Fail    int    `json:"fail"`
	Skip    int    `json:"skip"`
	// Null when no run passed or failed: a skip has no duration worth
	// reporting, and 0 would read as "instant".
	MinMS         *float64 `json:"min_ms"`
	MedianMS      *float64 `json:"median_ms"`
	P99MS         *float64 `json:"p99_ms"`
	MaxMS         *float64 `json:"max_ms"`
	Outliers      int      `json:"outliers"`
	FailureOutput []string `json:"failure_output"`
}

func writeJSON(w io.Writer, h header, rows []summary, tot totals) error {
	rep := jsonReport{
		Command: h.command,
		Load:    h.load,
		CPUs:    h.cpus,
		BoundMS: ms(h.bound),
		WallMS:  ms(h.wall),
		RunsPS:  h.rate(tot),
		Tests:   []jsonTest{},
		Passed:  tot.passed,
		Failed:  tot.failed,
		Skipped: tot.skipped,
	}
	for _, r := range rows {
		t := jsonTest{
			Package: r.pkg, Test: r.test,
			Runs: r.runs, Pass: r.pass, Fail: r.fail, Skip: r.skip,
			Outliers:      r.outliers,
			FailureOutput: r.failure,
		}
		if t.FailureOutput == nil {
			t.FailureOutput = []string{}
		}
		if r.timed {
			t.MinMS, t.MedianMS, t.P99MS, t.MaxMS = msp(r.min), msp(r.median), msp(r.p99), msp(r.max)
		}
		rep.Tests = append(rep.Tests, t)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func msp(d time.Duration) *float64 {
	v := ms(d)
	return &v
}

// formatDuration keeps two or three significant digits: the table is for
// spotting a slow tail, and test2json reports durations to 10ms anyway.
func formatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < 9950*time.Millisecond: // not "10.0s"
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return d.Round(time.Second).String()
}

// shellJoin quotes the arguments that need it, so that the header can be
// pasted back into a shell.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		quoted[i] = a
	}
	return strings.Join(quoted, " ")
}
