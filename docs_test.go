package exectest_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The README is a newcomer's first screen: what it is, install, and the
// quick start, whole, within its first 40 lines; no more than 10 KB in
// all (the details are in docs/); and no name the API no longer has.
func TestREADMEFirstScreen(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 10<<10 {
		t.Errorf("README.md: got %d bytes, want at most %d: move details to docs/", len(b), 10<<10)
	}
	lines := strings.Split(string(b), "\n")
	start := slices.Index(lines, "## Quick start")
	end := -1
	if start >= 0 {
		if open := slices.Index(lines[start:], "```go"); open >= 0 {
			if n := slices.Index(lines[start+open+1:], "```"); n >= 0 {
				end = start + open + 1 + n
			}
		}
	}
	if start < 0 || end < 0 || end >= 40 {
		t.Errorf("README.md: the quick start's heading and code end on lines %d and %d, want both within the first 40", start+1, end+1)
	}
	for _, gone := range []string{"ApplyCancelPolicy", "PolicyOption", "exectest.WaitDelay", "fixtures.Main", "proctest.VerifyTestMain"} {
		if strings.Contains(string(b), gone) {
			t.Errorf("README.md: got %s, which the API no longer has", gone)
		}
	}
	if _, err := os.Stat("docs/platforms.md"); err != nil || !strings.Contains(string(b), "(docs/platforms.md)") {
		t.Errorf("README.md: want a link to docs/platforms.md, the table of what is checked where (%v)", err)
	}
}

// flakehunt is for any module's tests: the docs say how to get it from
// another module, not only go run ./cmd/flakehunt of a checkout.
func TestDocsShowFlakehuntFromAnotherModule(t *testing.T) {
	for _, name := range []string{"README.md", "docs/flakes.md"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"go install github.com/exectest/exectest/cmd/flakehunt@latest",
			"go run github.com/exectest/exectest/cmd/flakehunt@latest ",
		} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: no %q", name, want)
			}
		}
	}
}

// execcheck is a module of its own, github.com/exectest/exectest/execcheck:
// the docs name its command by that path, and take go vet's tool from
// go tool -n, never from PATH, where a missing execcheck gave an empty
// -vettool and go vet's own checks alone, green.
func TestDocsShowExeccheckFromItsModule(t *testing.T) {
	const (
		cmd    = "github.com/exectest/exectest/execcheck/cmd/execcheck"
		gone   = "github.com/exectest/exectest/" + "cmd/execcheck"
		vet    = `go vet -vettool="$(go tool -n execcheck)" ./...`
		oldVet = "-vettool=$(command -v execcheck)"
	)
	for _, name := range []string{"README.md", "docs/execcheck.md"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"go get -tool " + cmd, "go tool execcheck ./...", vet} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: no %q", name, want)
			}
		}
	}
	docs, err := filepath.Glob("docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("docs/*.md: got %q, %v; want the docs", docs, err)
	}
	for _, name := range append(docs, "README.md") {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, gone) || strings.Contains(line, oldVet) {
				t.Errorf("%s:%d: got %q, want the command as %s, go vet's tool from go tool -n", name, i+1, line, cmd)
			}
		}
	}
}
