package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/checker"
)

// A finding of -fix: rewritten, or left to edit by hand.
type fixFinding struct {
	file   string // absolute, as analyzed
	offset int    // of the finding, in the file as analyzed
	posn   token.Position
	class  string // hang, orphan, launcher; "" for another finding
	advice string // the fix in words; for another finding, its message
	what   string // the rewrite's message: "rewrite X to Y"
	edits  []fileEdit
	// Why the rewrite was not made, where there is one.
	notMade string
	made    bool
}

// A fileEdit is an analysis.TextEdit as offsets in a file.
type fileEdit struct {
	file       string
	start, end int
	text       string
}

func (e fileEdit) insertion() bool { return e.start == e.end }

// runFix applies the rewrites of the findings of g's root packages, as
// singlechecker's -fix would, and says on stderr what it did: one line
// per site rewritten (path:line:col: rewrote X to Y), one per finding
// left (path:line:col: class: needs a hand edit: the fix), then the
// totals. Positions are those of the files as written (with diff, as
// they are: diff prints the rewrites to stdout instead of making them).
// It returns the exit status: 3 while a finding is left (with diff, also
// one it would rewrite), 1 on an error, else 0.
func runFix(g *checker.Graph, diff bool, stdout, stderr io.Writer) int {
	findings, files, err := collectFixes(g)
	if err != nil {
		fmt.Fprintf(stderr, "execcheck: %v\n", err)
		return 1
	}
	// Apply each rewrite whose edits merge with those taken so far: an
	// identical edit (an import two rewrites add) is made once, two
	// insertions at one place are both made, overlapping edits are not.
	taken := map[string][]fileEdit{}
	for _, f := range findings {
		if f.what == "" || f.notMade != "" {
			continue
		}
		var add []fileEdit
		ok := true
		for _, e := range f.edits {
			dup := false
			for _, list := range [][]fileEdit{taken[e.file], add} {
				for _, t := range list {
					switch {
					case t.file != e.file:
					case t == e:
						dup = true
					case !(e.end <= t.start || t.end <= e.start):
						ok = false
					}
				}
			}
			if !dup {
				add = append(add, e)
			}
		}
		if !ok {
			f.notMade = "its rewrite overlaps another's: run execcheck -fix again"
			continue
		}
		for _, e := range add {
			taken[e.file] = append(taken[e.file], e)
		}
		f.made = true
	}

	failed := false
	written := map[string]*rewritten{}
	var names []string
	for name := range taken {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rw, err := rewrite(files[name], taken[name])
		if err != nil {
			// No rewrite of this file is made.
			fmt.Fprintf(stderr, "execcheck: %s: %v\n", shortPath(name), err)
			failed = true
			for _, f := range findings {
				if f.made && f.file == name {
					f.made, f.notMade = false, "its rewrite failed: "+err.Error()
				}
			}
			continue
		}
		if diff {
			writeUnified(stdout, shortPath(name)+" (old)", shortPath(name)+" (new)", splitLines(string(files[name])), splitLines(string(rw.final)))
			continue
		}
		if err := os.WriteFile(name, rw.final, 0o644); err != nil {
			fmt.Fprintf(stderr, "execcheck: %v\n", err)
			failed = true
			for _, f := range findings {
				if f.made && f.file == name {
					f.made, f.notMade = false, "its rewrite failed: "+err.Error()
				}
			}
			continue
		}
		written[name] = rw
	}

	// The summary, in the order of the files and lines as they are now.
	type line struct {
		posn token.Position
		text string
	}
	var lines []line
	rewrote, left := 0, 0
	filesRewritten := map[string]bool{}
	classes := map[string]int{}
	verb := "rewrote"
	if diff {
		verb = "would rewrite"
	}
	for _, f := range findings {
		posn := f.posn
		if rw := written[f.file]; rw != nil {
			posn = rw.position(f)
		}
		posn.Filename = shortPath(posn.Filename)
		var text string
		switch {
		case f.made:
			rewrote++
			filesRewritten[f.file] = true
			text = verb + " " + strings.TrimPrefix(f.what, "rewrite ")
		default:
			left++
			classes[f.class]++
			how := "needs a hand edit"
			if f.notMade != "" {
				how = "not rewritten (" + f.notMade + ")"
			}
			text = how + ": " + f.advice
			if f.class != "" {
				text = f.class + ": " + text
			}
		}
		lines = append(lines, line{posn, text})
	}
	sort.SliceStable(lines, func(i, j int) bool { return lessPosition(lines[i].posn, lines[j].posn) })
	for _, l := range lines {
		fmt.Fprintf(stderr, "%s: %s\n", l.posn, l.text)
	}
	var total string
	switch {
	case rewrote == 0 && diff:
		total = "execcheck: nothing to rewrite"
	case rewrote == 0:
		total = "execcheck: nothing rewritten"
	default:
		total = fmt.Sprintf("execcheck: %s %s in %s", verb, plural(rewrote, "site"), plural(len(filesRewritten), "file"))
		if diff {
			total += " (-diff: no file changed)"
		}
	}
	switch left {
	case 0:
		total += "; no site needs a hand edit"
	default:
		var by []string
		for _, c := range []execcheck.Class{execcheck.Hang, execcheck.Orphan, execcheck.Launcher, ""} {
			if n := classes[string(c)]; n > 0 {
				if c == "" {
					by = append(by, plural(n, "other finding"))
				} else {
					by = append(by, fmt.Sprintf("%d %s", n, c))
				}
			}
		}
		verb := "needs"
		if left > 1 {
			verb = "need"
		}
		total += fmt.Sprintf("; %s %s a hand edit (%s)", plural(left, "site"), verb, strings.Join(by, ", "))
	}
	fmt.Fprintln(stderr, total)
	switch {
	case failed:
		return 1
	case left > 0, diff && rewrote > 0:
		// With -diff, the sites it would rewrite are still there too
		// (and go vet -diff fails on a diff that is not empty).
		return 3
	}
	return 0
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// collectFixes returns the findings of g's root packages, each once (a
// file of a package and of its test variant is analyzed twice), in the
// order of their positions, and the content of the files their rewrites
// edit, as analyzed.
func collectFixes(g *checker.Graph) ([]*fixFinding, map[string][]byte, error) {
	type key struct {
		file    string
		offset  int
		message string
	}
	seen := map[key]bool{}
	files := map[string][]byte{}
	var list []*fixFinding
	for _, act := range g.Roots {
		if act.Err != nil {
			continue
		}
		fset := act.Package.Fset
		sites := map[token.Pos]execcheck.Site{}
		if res, ok := act.Result.(*execcheck.Result); ok {
			for _, s := range res.Sites {
				sites[s.Pos] = s
			}
		}
		for _, d := range act.Diagnostics {
			posn := fset.Position(d.Pos)
			k := key{posn.Filename, posn.Offset, d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			f := &fixFinding{file: posn.Filename, offset: posn.Offset, posn: posn, advice: d.Message}
			if s, ok := sites[d.Pos]; ok {
				f.class, f.advice = string(s.Class), s.Fix
			}
			list = append(list, f)
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			fix := d.SuggestedFixes[0]
			f.what = fix.Message
			if !strings.HasPrefix(f.what, "rewrite ") {
				f.what = "rewrite: " + f.what
			}
			for _, te := range fix.TextEdits {
				tf := fset.File(te.Pos)
				if tf == nil {
					return nil, nil, fmt.Errorf("%s: a rewrite edits no file", positionString(posn))
				}
				end := te.End
				if !end.IsValid() {
					end = te.Pos
				}
				e := fileEdit{file: tf.Name(), start: tf.Offset(te.Pos), end: tf.Offset(end), text: string(te.NewText)}
				f.edits = append(f.edits, e)
				if _, ok := files[e.file]; !ok {
					b, err := os.ReadFile(e.file)
					if err != nil {
						return nil, nil, err
					}
					if len(b) != tf.Size() {
						return nil, nil, fmt.Errorf("%s changed since it was analyzed (%d bytes, then %d): no file rewritten", shortPath(e.file), tf.Size(), len(b))
					}
					files[e.file] = b
				}
				if generated(act.Package.Syntax, tf) {
					f.notMade = "a generated file: change what generates it"
				}
			}
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].file != list[j].file {
			return list[i].file < list[j].file
		}
		return list[i].offset < list[j].offset
	})
	return list, files, nil
}

// generated reports whether tf is a generated file of syntax.
func generated(syntax []*ast.File, tf *token.File) bool {
	for _, f := range syntax {
		if f.FileStart == token.Pos(tf.Base()) {
			return ast.IsGenerated(f)
		}
	}
	return false
}

// rewritten is a file after its rewrites: the content as edited, then
// formatted, and how lines moved.
type rewritten struct {
	edits  []fileEdit // sorted
	edited []byte     // before formatting
	final  []byte
	lines  []int // for each line of edited, the line of final it became
}

// rewrite applies edits to src and formats the result (gofmt, imports
// sorted, which also drops an import two rewrites added at two places).
func rewrite(src []byte, edits []fileEdit) (*rewritten, error) {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start < edits[j].start
		}
		return edits[i].insertion() && !edits[j].insertion()
	})
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end > len(src) {
			return nil, fmt.Errorf("the rewrites' edits overlap")
		}
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	edited := b.Bytes()
	final, err := format.Source(edited)
	if err != nil {
		return nil, fmt.Errorf("the rewritten file does not parse (%v): no rewrite made", err)
	}
	rw := &rewritten{edits: edits, edited: edited, final: final}
	a := splitLines(string(edited))
	rw.lines = lineMap(diffLines(a, splitLines(string(final))), len(a))
	return rw, nil
}

// position returns where f is in the file as written: a site rewritten
// is where its rewrite begins.
func (rw *rewritten) position(f *fixFinding) token.Position {
	off := f.offset
	shift := 0
	for _, e := range rw.edits {
		switch {
		case e.end <= off:
			shift += len(e.text) - (e.end - e.start)
		case e.start <= off && off < e.end:
			off = e.start // within a replaced range: where it begins
		}
	}
	off += shift
	// The line and column in the edited file, then the line it became.
	line, col := 1, 1
	for i := 0; i < off && i < len(rw.edited); i++ {
		if rw.edited[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	if line-1 < len(rw.lines) {
		line = rw.lines[line-1] + 1
	}
	return token.Position{Filename: f.file, Offset: off, Line: line, Column: col}
}
