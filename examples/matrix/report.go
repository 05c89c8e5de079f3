package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
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
	Why         string         `json:"why"`
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

func writeText(w io.Writer, m machine, rows []row) error {
	fmt.Fprintf(w, "%s\n\n", m)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIANT\tENVIRONMENT\tELAPSED AFTER CANCEL\tSURVIVORS\tLEAKED GOROUTINES\tVERDICT\tWHY")
	for _, r := range rows {
		s, g := r.counts()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Variant, r.Env, r.elapsed(), s, g, r.Verdict, r.Why)
	}
	return tw.Flush()
}

func writeMarkdown(w io.Writer, m machine, rows []row) error {
	fmt.Fprintf(w, "%s\n\n", m)
	fmt.Fprintln(w, "| variant | environment | elapsed after cancel | survivors | leaked goroutines | verdict | why |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rows {
		s, g := r.counts()
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Variant, r.Env, r.elapsed(), s, g, r.Verdict, strings.ReplaceAll(r.Why, "|", `\|`))
	}
	return nil
}

func writeJSON(w io.Writer, m machine, rows []row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Machine machine `json:"machine"`
		Rows    []row   `json:"rows"`
	}{m, rows})
}
