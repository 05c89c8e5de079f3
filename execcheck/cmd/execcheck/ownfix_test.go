package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSitesOfCancelpolicyTests: cancelpolicy's own runs are the fix and
// no sites, but the runs of its tests, those in its own package
// (safety_linux_test.go) too, are sites like any other package's: listed,
// not skipped in silence.
func TestSitesOfCancelpolicyTests(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cancelpolicy", "safety_linux_test.go")); err != nil {
		t.Skipf("the toolkit's checkout is not around this module (%v): a copy of the checker's module alone", err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Skipf("no go.work in %s: the toolkit's module is not in the workspace", root)
	}
	t.Chdir(root)
	t.Setenv("GOWORK", "")
	t.Setenv("GOOS", "linux") // safety_linux_test.go
	code, stdout, stderr := execcheckRun(t, "-sites", "./cancelpolicy")
	if code != 0 && code != 3 {
		t.Fatalf("execcheck -sites ./cancelpolicy: got status %d (%s), want 0 or 3", code, stderr)
	}
	if !strings.Contains(stdout, "cancelpolicy/safety_linux_test.go:31:") {
		t.Errorf("execcheck -sites ./cancelpolicy: got\n%s\nwant the site of safety_linux_test.go:31, a test in the package itself", stdout)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if regexp.MustCompile(`^\S+\.go:\d+`).MatchString(line) && !regexp.MustCompile(`^\S+_test\.go:\d+`).MatchString(line) {
			t.Errorf("execcheck -sites ./cancelpolicy: got %q, want no site of cancelpolicy's own code (its runs are the fix)", line)
		}
	}
}
