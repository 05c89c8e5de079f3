package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// row is one variant in one env, over all runs.
type row struct {
	Variant     string         `json:"variant"`
	Env         string         `json:"environment"`
	Runs        int            `json:"runs"`
	Verdict     string         `json:"verdict"` // PASS, FAIL, SKIP, UNAVAILABLE, or mixed: "FAIL 2/3"
	Verdicts    map[string]int `json:"verdicts,omitempty"`
	ElapsedMS   float64        `json:"elapsed_ms"` // median, from cancel to return
	MinMS       float64        `json:"elapsed_min_ms"`
	MaxMS       float64        `json:"elapsed_max_ms"`
	Hung        bool           `json:"hung"` // did not return within the bound
	Survivors   int            `json:"survivors"`
	Goroutines  int            `json:"leaked_goroutines"`
	Descriptors int            `json:"leaked_descriptors"`
	// OrphanedInits counts the runs whose sandbox's init outlived the
	// process that started it (see exectest.Result.OrphanedInits).
	OrphanedInits int    `json:"orphaned_inits,omitempty"`
	Why           string `json:"why"`
}

func (r *row) summarize(samples []sample, bound time.Duration) {
	r.Runs = len(samples)
	r.Verdicts = map[string]int{}
	var el []float64
	for _, s := range samples {
		r.Verdicts[s.verdict]++
		el = append(el, ms(s.elapsed))
		r.Hung = r.Hung || s.hung
		r.Survivors = max(r.Survivors, s.survivors)
		r.Goroutines = max(r.Goroutines, s.goroutines)
		r.Descriptors = max(r.Descriptors, s.descriptors)
		if s.orphanedInits > 0 {
			r.OrphanedInits++
		}
	}
	slices.Sort(el)
	r.ElapsedMS, r.MinMS, r.MaxMS = (el[(len(el)-1)/2]+el[len(el)/2])/2, el[0], el[len(el)-1]
	r.Verdict = samples[0].verdict
	if n := r.Verdicts[r.Verdict]; n != len(samples) {
		r.Verdict = fmt.Sprintf("%s %d/%d", worst(r.Verdicts), r.Verdicts[worst(r.Verdicts)], len(samples))
	}
	r.Why = samples[len(samples)-1].why
}

func worst(v map[string]int) string {
	for _, w := range []string{"FAIL", "SKIP", "PASS"} {
		if v[w] > 0 {
			return w
		}
	}
	return "PASS"
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (r row) elapsed() string {
	if r.Verdict == "UNAVAILABLE" {
		return "-"
	}
	s := fmt.Sprintf("%.2f ms", r.ElapsedMS)
	if r.Runs > 1 {
		s += fmt.Sprintf(" (%.2f-%.2f)", r.MinMS, r.MaxMS)
	}
	if r.Hung {
		s += " hung"
	}
	return s
}

func (r row) counts() (string, string) {
	if r.Verdict == "UNAVAILABLE" {
		return "-", "-"
	}
	return fmt.Sprint(r.Survivors), fmt.Sprint(r.Goroutines)
}

func writeMarkdown(w io.Writer, m machine, rows []row) error {
	fmt.Fprintf(w, "%s\n\n", m)
	fmt.Fprintln(w, "| variant | environment | elapsed after cancel | survivors | leaked goroutines | verdict | why |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rows {
		s, g := r.counts()
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Variant, r.Env, r.elapsed(), s, g, r.Verdict, strings.ReplaceAll(r.Why, "|", `\|`))
	}
	fmt.Fprintln(w)
	writeSummaryMarkdown(w, rows)
	return nil
}

func writeJSON(w io.Writer, m machine, rows []row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Machine machine `json:"machine"`
		Rows    []row   `json:"rows"`
		Summary summary `json:"summary"`
	}{m, rows, summarize(rows)})
}

// shapeRows and fixColumns are the rows and columns of -format shapes:
// the tree shapes that real programs take, against the ways to fix an
// exec site, each with the words the table shows. A shape's words say
// what makes it hard to stop: a cell says only what happened.
var (
	shapeRows = []struct{ env, label string }{
		{"direct", "waiting: `sh -c 'work & wait'`"},
		{"launcher (child exits at once)", "launcher: child exits at once"},
		{"job-control (set -m) descendant", "job control: own group (`set -m`)"},
		{"TERM-ignoring descendant", "ignores SIGTERM"},
		{"escaping (setsid) descendant", "escaping: own session (setsid)"},
		{"double-fork daemon", "double fork: daemon, own session"},
	}
	fixColumns = []struct{ variant, label string }{
		{"default Cancel", "default Cancel"},
		{"Setpgid + group kill + WaitDelay", "hand-written group kill"},
		{"cancelpolicy.Apply", "cancelpolicy.Apply"},
		{"cancelpolicy.Run", "cancelpolicy.Run"},
		{"cancelpolicy.Run + Graceful", "Run + Graceful"},
		{"cancelpolicy.Run + Contain", "Run + Contain"},
	}
)

// writeShapes writes the shapes x fixes table in markdown, each cell the
// verdict and, in a word, why; the reasons of unavailable cells follow it.
func writeShapes(w io.Writer, m machine, rows []row) error {
	cells := map[[2]string]row{}
	for _, r := range rows {
		cells[[2]string{r.Env, r.Variant}] = r
	}
	fmt.Fprintf(w, "%s\n\n| shape |", m)
	for _, c := range fixColumns {
		fmt.Fprintf(w, " %s |", c.label)
	}
	fmt.Fprintf(w, "\n| --- |%s\n", strings.Repeat(" --- |", len(fixColumns)))
	var reasons []string
	for _, s := range shapeRows {
		fmt.Fprintf(w, "| %s |", s.label)
		for _, c := range fixColumns {
			r, ok := cells[[2]string{s.env, c.variant}]
			if !ok {
				return fmt.Errorf("-format shapes: no cell for %s in %s", c.variant, s.env)
			}
			fmt.Fprintf(w, " %s |", r.brief())
			if r.Verdict == "UNAVAILABLE" && !slices.Contains(reasons, r.Why) {
				reasons = append(reasons, r.Why)
			}
		}
		fmt.Fprintln(w)
	}
	for _, why := range reasons {
		fmt.Fprintf(w, "\nUNAVAILABLE: %s\n", strings.ReplaceAll(why, "|", `\|`))
	}
	return nil
}

// brief is a cell of the shapes table: the verdict and what decided it.
func (r row) brief() string {
	switch {
	case r.Verdict == "UNAVAILABLE" || r.Verdict == "SKIP":
		return r.Verdict
	case r.Hung:
		return r.Verdict + ": hung"
	case r.Survivors > 0:
		return r.Verdict + ": left it running"
	case r.Goroutines > 0 || r.Descriptors > 0:
		return r.Verdict + ": leaked"
	}
	return fmt.Sprintf("%s (%.1f ms)", r.Verdict, r.ElapsedMS)
}
