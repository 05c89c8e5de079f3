package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStarted: a site at a helper's call names the Start or Run inside
// the helper (the innermost one, through a helper of a helper and from
// another package), so that a reader of the helper finds it.
func TestStarted(t *testing.T) {
	inTestdataModule(t, "started")

	code, stdout, _ := execcheckRun(t, "-sites", "./...")
	for _, w := range []string{
		"build.go:14:9: hang: Capture(...) (starting it at runner/runner.go:14:9): ",
		"build.go:20:9: orphan: check → start(...) (starting it at build.go:26:12): ",
	} {
		if code != 3 || !strings.Contains(stdout, w) {
			t.Errorf("execcheck -sites ./...: got status %d and\n%s\nwant 3 and %q", code, stdout, w)
		}
	}

	_, stdout, _ = execcheckRun(t, "-sites", "-json", "./...")
	var inv struct{ Sites []site }
	if err := json.Unmarshal([]byte(stdout), &inv); err != nil {
		t.Fatalf("execcheck -sites -json: %v", err)
	}
	got := map[string]string{}
	for _, s := range inv.Sites {
		got[s.Pos] = s.Started
	}
	want := map[string]string{"build.go:14:9": "runner/runner.go:14:9", "build.go:20:9": "build.go:26:12"}
	for pos, st := range want {
		if got[pos] != st {
			t.Errorf("execcheck -sites -json: the site at %s: got started %q, want %q", pos, got[pos], st)
		}
	}
}
