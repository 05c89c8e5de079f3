package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lines joins want's lines, each ended by a newline, their paths
// written with slashes made the system's.
func lines(want ...string) string {
	for i, l := range want {
		if p, rest, ok := strings.Cut(l, ".go:"); ok {
			want[i] = filepath.FromSlash(p) + ".go:" + rest
		}
	}
	return strings.Join(want, "\n") + "\n"
}

// The -fix summary of package all of testdata/fixsummary, where every
// site is rewritten.
var allRewritten = []string{
	"all/all.go:18:9: rewrote cmd.Run() to cancelpolicy.Run(ctx, cmd)",
	"all/all.go:26:2: rewrote cmd.Output() to cancelpolicy.Run(ctx, cmd) with a bytes.Buffer as Stdout",
	"all/all.go:37:2: rewrote exec.CommandContext(...).CombinedOutput() to cancelpolicy.Run(ctx, cmd) with a bytes.Buffer as Stdout and Stderr",
}

// TestFixSummary: -fix says what it rewrote, one line a site at its
// place in the file as written, then the total, and exits 0 when every
// site was rewritten (with -diff, 3: they are all still there); run
// again, it has nothing to do.
func TestFixSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("loads another module: not under -short")
	}
	inModule(t, copyModule(t, "fixsummary"))

	// With -diff, the sites are still there: status 3, as go vet -diff
	// fails on a diff.
	code, stdout, stderr := execcheckRun(t, "-fix", "-diff", "./all")
	want := "execcheck: would rewrite 3 sites in 1 file (-diff: no file changed); no site needs a hand edit\n"
	if code != 3 || !strings.HasPrefix(stdout, "--- ") || !strings.HasSuffix(stderr, want) {
		t.Errorf("execcheck -fix -diff ./all: got status %d and stderr\n%s\nwant status 3, a diff and %q", code, stderr, want)
	}

	code, stdout, stderr = execcheckRun(t, "-fix", "./all")
	want = lines(append(allRewritten, "execcheck: rewrote 3 sites in 1 file; no site needs a hand edit")...)
	if code != 0 || stdout != "" || stderr != want {
		t.Errorf("execcheck -fix ./all: got status %d, stdout %q and stderr\n%s\nwant status 0, no stdout and stderr\n%s", code, stdout, stderr, want)
	}
	// Each line points at its rewrite in the file now.
	src, err := os.ReadFile(filepath.Join("all", "all.go"))
	if err != nil {
		t.Fatal(err)
	}
	file := strings.Split(string(src), "\n")
	for _, c := range []struct {
		line, col int
		want      string
	}{
		{18, 9, "cancelpolicy.Run(ctx, cmd)"},
		{26, 2, "var stdout, stderr bytes.Buffer"},
		{37, 2, `cmd := exec.CommandContext(ctx, "sh", "-c", script)`},
	} {
		if got := file[c.line-1][c.col-1:]; !strings.HasPrefix(got, c.want) {
			t.Errorf("all/all.go:%d:%d: got %q, want the rewrite, %q", c.line, c.col, got, c.want)
		}
	}

	// The package builds (a type error would be status 1) and has
	// nothing left.
	if code, _, stderr := execcheckRun(t, "./all"); code != 0 || stderr != "" {
		t.Errorf("execcheck ./all after -fix: got status %d and %q, want 0 and nothing", code, stderr)
	}
	code, _, stderr = execcheckRun(t, "-fix", "./all")
	if want := "execcheck: nothing rewritten; no site needs a hand edit\n"; code != 0 || stderr != want {
		t.Errorf("execcheck -fix ./all again: got status %d and %q, want 0 and %q", code, stderr, want)
	}
}

// TestFixSummaryLeft: where a site is left that -fix cannot rewrite (a
// Start, a kill by hand, a rewrite in a generated file), the summary
// names it with its class and its fix, at the line where it is after the
// rewrites, which is where execcheck then reports it, and the status is
// 3 (that of a finding). With -diff, no file changes, the diff
// is on stdout, and the summary says what would be rewritten, at the
// lines of the files as they are.
func TestFixSummaryLeft(t *testing.T) {
	if testing.Short() {
		t.Skip("loads another module: not under -short")
	}
	dir := copyModule(t, "fixsummary")
	inModule(t, dir)
	before, err := os.ReadFile(filepath.Join("left", "left.go"))
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := execcheckRun(t, "-fix", "-diff", "./...")
	want := lines(
		"all/all.go:15:9: would rewrite cmd.Run() to cancelpolicy.Run(ctx, cmd)",
		"all/all.go:23:9: would rewrite cmd.Output() to cancelpolicy.Run(ctx, cmd) with a bytes.Buffer as Stdout",
		"all/all.go:28:14: would rewrite exec.CommandContext(...).CombinedOutput() to cancelpolicy.Run(ctx, cmd) with a bytes.Buffer as Stdout and Stderr",
		"left/gen.go:15:9: orphan: not rewritten (a generated file: change what generates it): run it with cancelpolicy.Run(ctx, cmd)",
		"left/left.go:16:9: would rewrite cmd.Run() to cancelpolicy.Run(ctx, cmd)",
		"left/left.go:27:12: hang: needs a hand edit: start it with cancelpolicy.Start(ctx, cmd) and call the Wait it returns",
		"left/left.go:43:9: orphan: needs a hand edit: run it with cancelpolicy.Run(ctx, cmd), in place of the kill by hand",
		"execcheck: would rewrite 4 sites in 2 files (-diff: no file changed); 3 sites need a hand edit (1 hang, 2 orphan)",
	)
	if code != 3 || stderr != want {
		t.Errorf("execcheck -fix -diff ./...: got status %d and stderr\n%s\nwant status 3 and\n%s", code, stderr, want)
	}
	for _, w := range []string{
		"--- " + filepath.FromSlash("left/left.go") + " (old)\n+++ " + filepath.FromSlash("left/left.go") + " (new)\n",
		"-\treturn cmd.Run()\n+\treturn cancelpolicy.Run(ctx, cmd)\n",
		"+\tvar stdout, stderr bytes.Buffer\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("execcheck -fix -diff ./...: got stdout\n%s\nwant %q in it", stdout, w)
		}
	}
	if after, err := os.ReadFile(filepath.Join("left", "left.go")); err != nil || !bytes.Equal(after, before) {
		t.Errorf("left/left.go after -fix -diff: changed (%v), want it as it was", err)
	}

	code, stdout, stderr = execcheckRun(t, "-fix", "./...")
	want = lines(append(allRewritten,
		"left/gen.go:15:9: orphan: not rewritten (a generated file: change what generates it): run it with cancelpolicy.Run(ctx, cmd)",
		"left/left.go:18:9: rewrote cmd.Run() to cancelpolicy.Run(ctx, cmd)",
		"left/left.go:29:12: hang: needs a hand edit: start it with cancelpolicy.Start(ctx, cmd) and call the Wait it returns",
		"left/left.go:45:9: orphan: needs a hand edit: run it with cancelpolicy.Run(ctx, cmd), in place of the kill by hand",
		"execcheck: rewrote 4 sites in 2 files; 3 sites need a hand edit (1 hang, 2 orphan)",
	)...)
	if code != 3 || stdout != "" || stderr != want {
		t.Errorf("execcheck -fix ./...: got status %d, stdout %q and stderr\n%s\nwant status 3, no stdout and\n%s", code, stdout, stderr, want)
	}

	// The sites left are found where the summary says.
	code, _, stderr = execcheckRun(t, "./...")
	got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != 3 || len(got) != 3 ||
		!strings.HasPrefix(got[0], filepath.FromSlash("left/gen.go")+":15:9: orphan: ") ||
		!strings.HasPrefix(got[1], filepath.FromSlash("left/left.go")+":29:12: hang: ") ||
		!strings.HasPrefix(got[2], filepath.FromSlash("left/left.go")+":45:9: orphan: ") {
		t.Errorf("execcheck ./... after -fix: got status %d and\n%s\nwant 3 and the orphan at left/gen.go:15:9, the hang at left/left.go:29:12, the orphan at :45:9", code, stderr)
	}
	code, _, stderr = execcheckRun(t, "-fix", "./...")
	if !strings.HasSuffix(stderr, "execcheck: nothing rewritten; 3 sites need a hand edit (1 hang, 2 orphan)\n") || code != 3 {
		t.Errorf("execcheck -fix ./... again: got status %d and\n%s\nwant 3 and the two sites left", code, stderr)
	}
}

// TestUnified: the line diff of -fix -diff, applied, gives the new text,
// and its hunks carry three lines of context.
func TestUnified(t *testing.T) {
	a := splitLines("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n")
	b := splitLines("a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\n")
	var got []string
	for _, o := range diffLines(a, b) {
		switch o.kind {
		case '=':
			if a[o.a] != b[o.b] {
				t.Errorf("diffLines: kept line %d %q as %d %q", o.a, a[o.a], o.b, b[o.b])
			}
			got = append(got, a[o.a])
		case '+':
			got = append(got, b[o.b])
		}
	}
	if strings.Join(got, "") != strings.Join(b, "") {
		t.Errorf("diffLines applied: got %q, want %q", strings.Join(got, ""), strings.Join(b, ""))
	}
	var w strings.Builder
	writeUnified(&w, "x (old)", "x (new)", a, b)
	want := "--- x (old)\n+++ x (new)\n" +
		"@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n" +
		"@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n"
	if w.String() != want {
		t.Errorf("writeUnified: got\n%s\nwant\n%s", w.String(), want)
	}
}
