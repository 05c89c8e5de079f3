package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// textWidth is the text format's limit: no line is wider, longer text
// wraps.
const textWidth = 120

// writeText writes one section per environment, a line per variant with
// the reason below it, indented and wrapped, and then the summary.
func writeText(w io.Writer, m machine, rows []row) error {
	var b strings.Builder
	writeWrapped(&b, m.String(), "", "  ")
	head := [...]string{"VARIANT", "VERDICT", "AFTER CANCEL", "SURVIVORS", "LEAKED GOROUTINES"}
	widths := make([]int, len(head))
	cells := func(r row) []string {
		s, g := r.counts()
		return []string{r.Variant, r.Verdict, r.elapsed(), s, g}
	}
	for i, h := range head {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range cells(r) {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	line := func(cs []string) {
		b.WriteString("  ")
		for i, c := range cs {
			b.WriteString(c)
			if i < len(cs)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteString("\n")
	}
	env := ""
	for i, r := range rows {
		if i == 0 || r.Env != env {
			env = r.Env
			fmt.Fprintf(&b, "\n%s\n", env)
			line(head[:])
		}
		line(cells(r))
		writeWrapped(&b, r.Why, "    ", "    ")
	}
	b.WriteString("\n")
	writeSummary(&b, rows)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeWrapped writes s in lines of at most textWidth runes, the first
// after first and the rest after indent, broken at spaces. A word too long
// for a line of its own is cut.
func writeWrapped(b *strings.Builder, s, first, indent string) {
	cur, empty := first, true
	flush := func() {
		b.WriteString(cur)
		b.WriteString("\n")
		cur, empty = indent, true
	}
	for _, word := range strings.Fields(s) {
		for word != "" {
			room := textWidth - utf8.RuneCountInString(cur)
			if !empty {
				room-- // the space before the word
			}
			switch n := utf8.RuneCountInString(word); {
			case n <= room:
				if !empty {
					cur += " "
				}
				cur, word, empty = cur+word, "", false
			case !empty:
				flush()
			default:
				// Alone on its line and still too long.
				rs := []rune(word)
				cur, word = cur+string(rs[:room]), string(rs[room:])
				flush()
			}
		}
	}
	if !empty {
		flush()
	}
}
