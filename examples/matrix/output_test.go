package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/exectest/exectest/examples/runners"
)

// runMainEnv makes this test binary run the matrix's main instead of its
// tests, before the testing package registers its flags, so that a test
// sees the program's own flag handling.
const runMainEnv = "MATRIX_TEST_RUN_MAIN"

func init() {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
}

// runMain runs the matrix's main with args and returns its stdout,
// stderr and exit code.
func runMain(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %s %q: %v", os.Args[0], args, err)
	}
	return out.String(), errb.String(), code
}

// The usage names the command as the user runs it, not the binary that go
// run built in its cache.
func TestUsageNamesTheCommand(t *testing.T) {
	_, stderr, code := runMain(t, "-h")
	if code != 0 || !strings.HasPrefix(stderr, "usage: go run ./examples/matrix [-format ") || strings.Contains(stderr, os.Args[0]) {
		t.Errorf("-h: got exit %d, stderr:\n%s\nwant exit 0 and a usage starting \"usage: go run ./examples/matrix [-format \", without the binary's path %s", code, stderr, os.Args[0])
	}
	for _, flag := range []string{"-format", "-runs", "-bound", "-lifetime"} {
		if !strings.Contains(stderr, "  "+flag+" ") {
			t.Errorf("-h: no line for %s in\n%s", flag, stderr)
		}
	}
	_, stderr, code = runMain(t, "-nosuchflag")
	if code != 2 || !strings.HasPrefix(stderr, "flag provided but not defined: -nosuchflag\nusage: go run ./examples/matrix ") {
		t.Errorf("-nosuchflag: got exit %d, stderr:\n%s\nwant exit 2, the error and the usage", code, stderr)
	}
}

// cellsForOutput are rows as wide as the real ones get: every variant in
// every environment, a mixed verdict of three runs, a long reason, and a
// reason with one word too long for any line.
func cellsForOutput() []row {
	var rows []row
	long := "hung: the orphaned descendant (sleep 20) held the output pipe past the 1s bound; returned, but left the orphaned descendant (sleep 20) and the fixture child (sh -c) running; leaked os/exec goroutines (run gave up without Wait); left the command's pipe open"
	for _, e := range envs() {
		for i, v := range runners.All {
			r := row{Variant: v.Name, Env: e.name, Runs: 3, ElapsedMS: 1003.25, MinMS: 1001.5, MaxMS: 1010.75, Verdict: "PASS", Why: "returned in time, nothing left running"}
			switch i % 4 {
			case 1:
				r.Verdict, r.Hung, r.Survivors, r.Goroutines, r.Why = "FAIL 2/3", true, 2, 2, long
			case 2:
				r.Verdict, r.Why = "UNAVAILABLE", "bubblewrap cannot make a sandbox here: bwrap: setting up uid map: Permission denied; /tmp/"+strings.Repeat("very-long-path-", 12)+"bwrap"
			case 3:
				r.Verdict, r.Why = "SKIP", "the descendant never proved it runs, so the check would pass vacuously"
			}
			rows = append(rows, r)
		}
	}
	return rows
}

func TestTextFitsIn120Columns(t *testing.T) {
	m := machine{Go: "go1.26.8 linux/amd64", Kernel: "6.18.44-fc-v1045-a-long-vendor-suffix-that-makes-the-line-wrap", CPUs: 2, Root: true, Bound: "1s", Runs: 3, Load: 0.5}
	rows := cellsForOutput()
	var b bytes.Buffer
	if err := writeText(&b, m, rows); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > textWidth {
			t.Errorf("line %d: got %d columns, want at most %d: %q", i+1, n, textWidth, l)
		}
	}
	// Wrapping loses nothing: each reason is there, word for word, below
	// its row.
	space := regexp.MustCompile(`\s+`)
	flat := space.ReplaceAllString(out, " ")
	for _, r := range []row{rows[1], rows[2], rows[3]} {
		if !strings.Contains(flat, " "+r.Variant+" ") || !strings.Contains(strings.ReplaceAll(flat, " ", ""), strings.ReplaceAll(r.Why, " ", "")) {
			t.Errorf("%s in %s: the row or its reason %q is missing from\n%s", r.Variant, r.Env, r.Why, out)
		}
	}
	if !strings.Contains(flat, m.Kernel) {
		t.Errorf("the machine line is missing its kernel %q:\n%s", m.Kernel, out)
	}
	if t.Failed() {
		t.Logf("the whole output:\n%s", out)
	}
}

// Every format but shapes ends with the summary: the verdicts per variant
// and a last line with the cells.
func TestSummaryEndsTheOutput(t *testing.T) {
	rows := cellsForOutput()
	// In each of the nine environments the nine variants (i%4 = 0 1 2 3 0
	// 1 2 3 0) have 3 PASS, 2 FAIL, 2 UNAVAILABLE and 2 SKIP.
	const last = "81 cells: 27 PASS, 18 FAIL, 18 SKIP, 18 UNAVAILABLE"
	perVariant := regexp.MustCompile(`(?m)^  cancelpolicy\.Run\s+0\s+9\s+0\s+0$`)

	var b bytes.Buffer
	if err := writeText(&b, machine{}, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\n"+last+"\n") || !perVariant.MatchString(b.String()) {
		t.Errorf("text: got\n%s\nwant a line per variant (cancelpolicy.Run: 0 PASS, 9 FAIL) and last %q", b.String(), last)
	}

	b.Reset()
	if err := writeMarkdown(&b, machine{}, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\n"+last+"\n") || !strings.Contains(b.String(), "\n| cancelpolicy.Run | 0 | 9 | 0 | 0 |\n") {
		t.Errorf("markdown: got\n%s\nwant a summary table and last %q", b.String(), last)
	}

	b.Reset()
	if err := writeJSON(&b, machine{}, rows); err != nil {
		t.Fatal(err)
	}
	var parsed struct{ Summary summary }
	if err := json.Unmarshal(b.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	s := parsed.Summary
	if s.Cells != 81 || s.Verdicts["FAIL"] != 18 || len(s.ByVariant) != 9 || s.ByVariant[5].Variant != "cancelpolicy.Run" || s.ByVariant[5].Verdicts["FAIL"] != 9 {
		t.Errorf("json: got summary %+v, want 81 cells, 18 FAIL, 9 variants, cancelpolicy.Run 9 FAIL", s)
	}
}
