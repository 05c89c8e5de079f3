package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inModule makes dir, a copy of a testdata module, the current directory
// of the test, offline (as TestSitesInventory).
func inModule(t *testing.T, dir string) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", os.Getenv("GOFLAGS")+" -mod=readonly")
}

// inTestdataModule copies testdata/name, a module that requires
// nothing, to a temporary directory and makes it the current module
// (inModule); it skips under -short, as loading a module takes seconds.
func inTestdataModule(t *testing.T, name string) {
	t.Helper()
	if testing.Short() {
		t.Skip("loads another module: not under -short")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	inModule(t, dir)
}

// execcheckRun runs the command's main path (not go vet's) in the
// current directory and returns its status, stdout and stderr.
func execcheckRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	var code int
	if sitesMode(args) {
		code = runSites(args, &stdout, &stderr)
	} else {
		code = runCheck(args, &stdout, &stderr)
	}
	t.Logf("$ execcheck %s (status %d)\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	return code, stdout.String(), stderr.String()
}

// TestPathForms: findings, -sites (text and JSON), the -fix summary and
// its diff print a file's path as go vet does, relative to the current
// directory where that is shorter, ../ included; -json, go/analysis's
// format, keeps its posn absolute, as go vet -json does.
func TestPathForms(t *testing.T) {
	if testing.Short() {
		t.Skip("loads another module: not under -short")
	}
	dir := copyModule(t, "fixsummary")
	inModule(t, filepath.Join(dir, "left"))
	up := filepath.FromSlash("../all/all.go")

	_, _, stderr := execcheckRun(t, "../...")
	for _, w := range []string{up + ":15:9: hang: ", "\nleft.go:27:12: hang: "} {
		if !strings.Contains(stderr, w) {
			t.Errorf("execcheck ../...: got\n%s\nwant %q", stderr, w)
		}
	}

	_, stdout, _ := execcheckRun(t, "-sites", "../...")
	for _, w := range []string{up + ":15:9: hang: cmd.Run(): ", "\nleft.go:27:12: hang: cmd.Start(): "} {
		if !strings.Contains(stdout, w) {
			t.Errorf("execcheck -sites ../...: got\n%s\nwant %q", stdout, w)
		}
	}
	_, stdout, _ = execcheckRun(t, "-sites", "-json", "../...")
	var inv struct{ Sites []site }
	if err := json.Unmarshal([]byte(stdout), &inv); err != nil {
		t.Fatalf("execcheck -sites -json: %v", err)
	}
	if len(inv.Sites) == 0 || inv.Sites[0].Pos != up+":15:9" {
		t.Errorf("execcheck -sites -json ../...: got %+v, want the first site at %s:15:9", inv.Sites, up)
	}

	code, stdout, _ := execcheckRun(t, "-json", "../...")
	var tree map[string]map[string][]struct{ Posn string }
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("execcheck -json: %v\n%s", err, stdout)
	}
	posn := tree["example.com/fixsummary/all"]["execcheck"]
	if code != 0 || len(posn) == 0 || !filepath.IsAbs(posn[0].Posn) || !strings.HasSuffix(posn[0].Posn, filepath.FromSlash("/all/all.go")+":15:9") {
		t.Errorf("execcheck -json ../...: got status %d and %+v, want 0 and the absolute path of all/all.go:15:9", code, posn)
	}

	_, stdout, stderr = execcheckRun(t, "-fix", "-diff", "../...")
	for _, w := range []string{up + ":15:9: would rewrite cmd.Run()", "\nleft.go:27:12: hang: needs a hand edit: "} {
		if !strings.Contains(stderr, w) {
			t.Errorf("execcheck -fix -diff ../...: got\n%s\nwant %q", stderr, w)
		}
	}
	if !strings.HasPrefix(stdout, "--- "+up+" (old)\n+++ "+up+" (new)\n") {
		t.Errorf("execcheck -fix -diff ../...: got a diff beginning\n%.200s\nwant it named %s", stdout, up)
	}
}

func TestVetMode(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-json", "-c=2", "/tmp/go-build/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"-fix", "./..."}, false},
		{[]string{"-c", "1", "./..."}, false},
		{[]string{"a.cfg", "b.cfg"}, false},
		{[]string{"./...", "-V"}, false},
	} {
		if got := vetMode(c.args); got != c.want {
			t.Errorf("vetMode(%q): got %v, want %v", c.args, got, c.want)
		}
	}
}
