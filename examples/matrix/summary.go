package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// verdictNames are the verdicts a cell can have, in the order the summary
// counts them. A cell whose runs did not all agree ("FAIL 2/3") counts as
// its worst verdict, the one it shows.
var verdictNames = []string{"PASS", "FAIL", "SKIP", "UNAVAILABLE"}

// summary counts the cells' verdicts, in all and per variant.
type summary struct {
	Cells     int              `json:"cells"`
	Verdicts  map[string]int   `json:"verdicts"`
	ByVariant []variantSummary `json:"by_variant"`
}

type variantSummary struct {
	Variant  string         `json:"variant"`
	Verdicts map[string]int `json:"verdicts"`
}

func summarize(rows []row) summary {
	s := summary{Verdicts: map[string]int{}}
	at := map[string]int{} // index in ByVariant
	for _, r := range rows {
		v, _, _ := strings.Cut(r.Verdict, " ")
		s.Cells++
		s.Verdicts[v]++
		i, ok := at[r.Variant]
		if !ok {
			i = len(s.ByVariant)
			at[r.Variant] = i
			s.ByVariant = append(s.ByVariant, variantSummary{Variant: r.Variant, Verdicts: map[string]int{}})
		}
		s.ByVariant[i].Verdicts[v]++
	}
	return s
}

// total is the summary's last line: "81 cells: 38 PASS, 35 FAIL, 0 SKIP,
// 8 UNAVAILABLE".
func (s summary) total() string {
	var parts []string
	for _, v := range verdictNames {
		parts = append(parts, fmt.Sprintf("%d %s", s.Verdicts[v], v))
	}
	return fmt.Sprintf("%d cells: %s", s.Cells, strings.Join(parts, ", "))
}

// writeSummary writes a line per variant with its cells' verdicts, then
// the total.
func writeSummary(w io.Writer, rows []row) {
	s := summarize(rows)
	width := len("VARIANT")
	for _, v := range s.ByVariant {
		width = max(width, utf8.RuneCountInString(v.Variant))
	}
	pad := func(name string) string { return strings.Repeat(" ", width-utf8.RuneCountInString(name)) }
	fmt.Fprintf(w, "summary, per variant:\n  VARIANT%s", pad("VARIANT"))
	for _, v := range verdictNames {
		fmt.Fprintf(w, "  %s", v)
	}
	fmt.Fprintln(w)
	for _, vs := range s.ByVariant {
		fmt.Fprintf(w, "  %s%s", vs.Variant, pad(vs.Variant))
		for _, v := range verdictNames {
			fmt.Fprintf(w, "  %*d", len(v), vs.Verdicts[v])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, s.total())
}

// writeSummaryMarkdown is writeSummary as a markdown table.
func writeSummaryMarkdown(w io.Writer, rows []row) {
	s := summarize(rows)
	fmt.Fprintf(w, "| variant | %s |\n|%s\n", strings.Join(verdictNames, " | "), strings.Repeat(" --- |", 1+len(verdictNames)))
	for _, vs := range s.ByVariant {
		fmt.Fprintf(w, "| %s |", vs.Variant)
		for _, v := range verdictNames {
			fmt.Fprintf(w, " %d |", vs.Verdicts[v])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n%s\n", s.total())
}
