package main

import (
	"fmt"
	"io"
	"strings"
)

// A diffOp is one line of a line diff: kept ('='), deleted from a ('-')
// or inserted from b ('+'). a and b are where it is in each: the line's
// index, or, where the line is in the other text only, the index of the
// line it comes before.
type diffOp struct {
	kind byte
	a, b int
}

// splitLines splits s after each newline; a last line without one is a
// line too.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines aligns a and b, lines: the common head and tail, and Myers'
// shortest edit script between them.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for i := range pre {
		ops = append(ops, diffOp{'=', i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		o.a += pre
		o.b += pre
		ops = append(ops, o)
	}
	for i := range suf {
		ops = append(ops, diffOp{'=', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// maxEdits bounds the edit script myers searches for; beyond it (a file
// rewritten throughout), the middle is replaced as a whole.
const maxEdits = 2000

// myers returns the shortest edit script from a to b.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	whole := func() []diffOp {
		var ops []diffOp
		for i := range n {
			ops = append(ops, diffOp{'-', i, 0})
		}
		for j := range m {
			ops = append(ops, diffOp{'+', n, j})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return whole()
	}
	// v[k] is the furthest x on diagonal k (x - y = k); trace[d] is v
	// before step d, for k in [-d-1, d+1].
	limit := min(n+m, maxEdits)
	v := make([]int, 2*limit+3)
	off := limit + 1
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	return whole()
}

func backtrack(trace [][]int, n, m int) []diffOp {
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		tv := trace[d]
		at := func(k int) int { return tv[k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{'=', x, y})
		}
		if d > 0 {
			if x == px {
				rev = append(rev, diffOp{'+', px, py})
			} else {
				rev = append(rev, diffOp{'-', px, py})
			}
		}
		x, y = px, py
	}
	ops := make([]diffOp, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

// lineMap returns, for each line of a, the line of b it became: the
// same line where it was kept, else where it would have been.
func lineMap(ops []diffOp, n int) []int {
	m := make([]int, n)
	for _, o := range ops {
		if o.kind != '+' && o.a < n {
			m[o.a] = o.b
		}
	}
	return m
}

// writeUnified writes the unified diff of a and b, with three lines of
// context, under the names given.
func writeUnified(w io.Writer, oldName, newName string, a, b []string) {
	ops := diffLines(a, b)
	const ctx = 3
	var changes []int
	for i, o := range ops {
		if o.kind != '=' {
			changes = append(changes, i)
		}
	}
	if len(changes) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", oldName, newName)
	for c := 0; c < len(changes); {
		start := max(changes[c]-ctx, 0)
		last := changes[c]
		c++
		for c < len(changes) && changes[c]-last <= 2*ctx+1 {
			last = changes[c]
			c++
		}
		end := min(last+ctx+1, len(ops))
		var oldN, newN int
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				oldN++
			}
			if o.kind != '-' {
				newN++
			}
		}
		oldStart, newStart := ops[start].a+1, ops[start].b+1
		if oldN == 0 {
			oldStart--
		}
		if newN == 0 {
			newStart--
		}
		fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", oldStart, oldN, newStart, newN)
		for _, o := range ops[start:end] {
			var line string
			switch o.kind {
			case '=':
				line = " " + a[o.a]
			case '-':
				line = "-" + a[o.a]
			case '+':
				line = "+" + b[o.b]
			}
			if !strings.HasSuffix(line, "\n") {
				line += "\n\\ No newline at end of file\n"
			}
			io.WriteString(w, line)
		}
	}
}
