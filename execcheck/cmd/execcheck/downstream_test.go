package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// downstream copies testdata/downstream, a module that requires exectest
// and execcheck through replaces to this checkout and has a runner with
// the bug seeded, into a temporary directory; it works offline
// (GOPROXY=off), from the module cache and the checkout.
func downstream(t *testing.T) string {
	t.Helper()
	return copyModule(t, "downstream")
}

// copyModule copies the module testdata/name, with its folders, into a
// temporary directory, its replaces pointed to this checkout.
func copyModule(t *testing.T, name string) string {
	t.Helper()
	// This folder is execcheck/cmd/execcheck: execcheck's module is two
	// folders up, the toolkit's (the checkout's root) three.
	checker, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(checker)
	replaces := map[string]string{
		"github.com/exectest/exectest => ../../../../..\n":        "github.com/exectest/exectest => " + root + "\n",
		"github.com/exectest/exectest/execcheck => ../../../..\n": "github.com/exectest/exectest/execcheck => " + checker + "\n",
	}
	dir := t.TempDir()
	src := filepath.Join("testdata", name)
	err = filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == "go.mod" {
			for from, to := range replaces {
				if !bytes.Contains(b, []byte(from)) {
					t.Fatalf("%s: no %q to point to this checkout", path, from)
				}
				b = bytes.Replace(b, []byte(from), []byte(to), 1)
			}
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// goIn runs the go command in dir, offline, and returns its output and
// whether it succeeded.
func goIn(t *testing.T, dir string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS="+os.Getenv("GOFLAGS")+" -mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("go %s: %v", strings.Join(args, " "), err)
		}
	}
	t.Logf("$ go %s\n%s", strings.Join(args, " "), out)
	return string(out), err == nil
}

// TestDownstream is the downstream proof: in another module that
// has execcheck as a tool (go get -tool), execcheck finds the seeded bug
// (also as go vet's tool, the README's go vet -vettool="$(go tool -n
// execcheck)"), the exectest test of that site fails, -fix rewrites it to
// cancelpolicy.Run and says so, and then execcheck finds nothing (also
// run by its command path, as go run and go install take it) and the
// same test passes.
func TestDownstream(t *testing.T) {
	if testing.Short() {
		t.Skip("builds another module: not under -short")
	}
	dir := downstream(t)
	const check = "github.com/exectest/exectest/execcheck/cmd/execcheck"

	out, ok := goIn(t, dir, "tool", "execcheck", "./...")
	if ok || !strings.Contains(out, "runner.go:16:9: hang: stdout is a *bytes.Buffer") {
		t.Fatalf("go tool execcheck before the fix: got ok=%v and\n%s\nwant a failure and the hang at runner.go:16:9", ok, out)
	}

	out, ok = goIn(t, dir, "tool", "-n", "execcheck")
	bin := strings.TrimSpace(out)
	if !ok || !filepath.IsAbs(bin) || strings.Contains(bin, "\n") {
		t.Fatalf("go tool -n execcheck: got ok=%v and %q, want the path of the tool's binary", ok, out)
	}
	out, ok = goIn(t, dir, "vet", "-vettool="+bin, "./...")
	if ok || !strings.Contains(out, "runner.go:16:9: hang: ") {
		t.Fatalf("go vet -vettool=\"$(go tool -n execcheck)\" before the fix: got ok=%v and\n%s\nwant the hang at runner.go:16:9", ok, out)
	}

	out, ok = goIn(t, dir, "test", "-count=1", "-v", "-run", "^TestRunCancel$", ".")
	if ok || !strings.Contains(out, "--- FAIL: TestRunCancel") {
		t.Fatalf("the AssertCancel test before the fix: got ok=%v and\n%s\nwant --- FAIL: TestRunCancel", ok, out)
	}

	// -fix says what it rewrote, at the line where the rewrite now is,
	// and that nothing is left (status 0).
	out, ok = goIn(t, dir, "tool", "execcheck", "-fix", "./...")
	const summary = "runner.go:18:9: rewrote cmd.Run() to cancelpolicy.Run(ctx, cmd)\n" +
		"execcheck: rewrote 1 site in 1 file; no site needs a hand edit\n"
	if !ok || out != summary {
		t.Fatalf("go tool execcheck -fix: got ok=%v and\n%s\nwant success and\n%s", ok, out, summary)
	}
	src, err := os.ReadFile(filepath.Join(dir, "runner.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("err := cancelpolicy.Run(ctx, cmd)")) || !bytes.Contains(src, []byte(`"github.com/exectest/exectest/cancelpolicy"`)) {
		t.Fatalf("runner.go after -fix: got\n%s\nwant cancelpolicy.Run(ctx, cmd) and its import", src)
	}

	if out, ok := goIn(t, dir, "tool", "execcheck", "./..."); !ok || out != "" {
		t.Fatalf("go tool execcheck after the fix: got ok=%v and %q, want no finding", ok, out)
	}
	if out, ok := goIn(t, dir, "run", check, "./..."); !ok || out != "" {
		t.Fatalf("go run %s after the fix: got ok=%v and %q, want no finding", check, ok, out)
	}
	out, ok = goIn(t, dir, "test", "-count=1", "-v", "-run", "^TestRunCancel$", ".")
	if !ok || !strings.Contains(out, "--- PASS: TestRunCancel") {
		t.Fatalf("the AssertCancel test after the fix: got ok=%v and\n%s\nwant --- PASS: TestRunCancel", ok, out)
	}
}

// TestSitesInventory lists the seeded module's sites, as text and JSON:
// the hang is neither ok nor ignored, so the status is 3.
func TestSitesInventory(t *testing.T) {
	dir := downstream(t)
	t.Chdir(dir)
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", os.Getenv("GOFLAGS")+" -mod=readonly")

	var stdout, stderr bytes.Buffer
	if code := runSites([]string{"-sites", "./..."}, &stdout, &stderr); code != 3 {
		t.Errorf("execcheck -sites: got status %d (stderr %q), want 3", code, stderr.String())
	}
	want := "runner.go:16:9: hang: cmd.Run(): stdout is a *bytes.Buffer and nothing bounds Wait (no WaitDelay)"
	if !strings.Contains(stdout.String(), want) || !strings.Contains(stdout.String(), "1 exec sites: 1 hang, 0 orphan, 0 launcher, 0 ok, 0 unknown; 0 ignored") {
		t.Errorf("execcheck -sites: got\n%s\nwant %q and the count line", stdout.String(), want)
	}

	stdout.Reset()
	if code := runSites([]string{"-sites", "-json", "./..."}, &stdout, &stderr); code != 3 {
		t.Errorf("execcheck -sites -json: got status %d, want 3", code)
	}
	var inv struct {
		Sites   []site
		Classes map[string]int
	}
	if err := json.Unmarshal(stdout.Bytes(), &inv); err != nil {
		t.Fatalf("execcheck -sites -json: %v\n%s", err, stdout.String())
	}
	if len(inv.Sites) != 1 || inv.Sites[0].Class != "hang" || inv.Sites[0].Pos != "runner.go:16:9" || inv.Sites[0].Fix != "run it with cancelpolicy.Run(ctx, cmd)" || inv.Classes["hang"] != 1 {
		t.Errorf("execcheck -sites -json: got %+v, want the one hang at runner.go:16:9 with its fix", inv)
	}
}

func TestSitesMode(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-sites", "./..."}, true},
		{[]string{"-json", "--sites", "./..."}, true},
		{[]string{"-sites=true", "."}, true},
		{[]string{"./...", "-sites"}, false},
		{[]string{"-fix", "./..."}, false},
		{[]string{"pkg.cfg"}, false},
	} {
		if got := sitesMode(c.args); got != c.want {
			t.Errorf("sitesMode(%q): got %v, want %v", c.args, got, c.want)
		}
	}
}
