//go:build unix

package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/check"
)

// A module of a user's, outside this one (testdata/downstream), with a
// table-driven test of a runner built with exec.Command that starts the
// command, kills it with Process.Kill from a watchdog and waits for it:
// its test fails, and with the fix line it prints applied verbatim it
// passes. Before, the line
// advised cancelpolicy.Apply(cmd), which such a command cannot take: its
// Start fails ("exec: command with a non-nil Cancel was not created with
// CommandContext"), and the check skipped as vacuous, green under go test.
func TestDownstreamModuleFollowsTheFixLine(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		if strictMode() {
			t.Fatalf("no go command to test a downstream module with: %v", err)
		}
		t.Skipf("no go command to test a downstream module with: %v (set EXECTEST_STRICT=1 to make this a failure)", err)
	}
	here, err := filepath.Abs("../..") // the module's root
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		write(to, b)
	}
	write("go.mod", []byte("module example.com/downstream\n\ngo 1.26.0\n\nrequire github.com/exectest/exectest v0.0.0\n\nreplace github.com/exectest/exectest => "+here+"\n"))
	copyFile("../../go.sum", "go.sum") // the hashes of exectest's own requirements
	copyFile("testdata/downstream/runner/runner.go", "runner/runner.go")
	copyFile("testdata/downstream/runner/runner_test.go", "runner/runner_test.go")
	goTest := func() (string, error) {
		cmd := exec.Command(goTool, "test", "-count=1", "-v", "./...")
		cmd.Dir = mod
		// The go.sum lines a replaced module's requirements need are
		// added from the module cache (GOPROXY may be off).
		cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
			return strings.HasPrefix(kv, "GODEBUG=") || strings.HasPrefix(kv, "GOFLAGS=")
		}), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off", "EXECTEST_STRICT=1") // a skip fails

		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest()
	if err == nil {
		t.Fatalf("go test of the downstream runner that kills the child only: got ok, want a failure:\n%s", out)
	}
	want := check.ForRunCall(check.FixLines["own group"], "Start") // run calls Start and Wait itself
	n := 0
	for line := range strings.Lines(out) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "fix: ") {
			if l != want {
				t.Errorf("fix line: got %q, want %q", l, want)
			}
			n++
		}
	}
	if n != 2 {
		t.Fatalf("fix lines: got %d, want one per row of the downstream table (2):\n%s", n, out)
	}
	copyFile("testdata/downstream/fixed/runner.go", "runner/runner.go")
	if out, err := goTest(); err != nil || !strings.Contains(out, "ok  \texample.com/downstream/runner") || strings.Contains(out, "SKIP") {
		t.Fatalf("go test of the downstream runner with the fix line applied: got %v, want ok:\n%s", err, out)
	}
}
