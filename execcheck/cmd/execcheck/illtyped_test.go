package main

import (
	"strings"
	"testing"
)

// TestIllTypedPackage: a package that does not type-check is checked
// where it can be; its errors are printed and the status is 1, with the
// sites found, not in place of them.
func TestIllTypedPackage(t *testing.T) {
	inTestdataModule(t, "illtyped")

	code, stdout, stderr := execcheckRun(t, "-sites", "./...")
	if code != 1 || !strings.Contains(stderr, "example.com/illtyped/gen") {
		t.Errorf("execcheck -sites ./...: got status %d, stderr %q; want 1 and the load error naming example.com/illtyped/gen", code, stderr)
	}
	for _, w := range []string{
		"run/run.go:17:9: hang: cmd.Run(): ",
		"run/run.go:23:9: unknown: cmd.Run(): the function Client does not type-check (gen.Flag has no type): execcheck does not follow it\n",
		"2 exec sites: 1 hang, 0 orphan, 0 launcher, 0 ok, 1 unknown; 0 ignored\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("execcheck -sites ./...: got\n%s\nwant %q", stdout, w)
		}
	}

	code, _, stderr = execcheckRun(t, "./...")
	if w := "run/run.go:17:9: hang: "; code != 1 || !strings.Contains(stderr, w) {
		t.Errorf("execcheck ./...: got status %d and\n%s\nwant 1 and %q", code, stderr, w)
	}
}
