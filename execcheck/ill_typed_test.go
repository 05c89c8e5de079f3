package execcheck

import (
	"fmt"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestUnwalked: where the walk of a package that does not type-check
// fails, every run is listed as unknown, with why, and nothing crashes.
func TestUnwalked(t *testing.T) {
	walkHook = func() { panic("a type the walk did not expect") }
	defer func() { walkHook = nil }()
	// The package's // want lines are for a walk that succeeds: a
	// recording Testing takes their misses.
	res := analysistest.Run(&recording{}, analysistest.TestData(), Analyzer, "example.com/t/illtyped")
	if len(res) != 1 || res[0].Err != nil {
		t.Fatalf("analysis: got %+v, want one result and no error", res)
	}
	sites := res[0].Result.(*Result).Sites
	if len(sites) != 4 {
		t.Errorf("sites: got %d, want the 4 runs of illtyped", len(sites))
	}
	for _, s := range sites {
		want := "the package does not type-check (could not import example.com/t/illtyped/gen (invalid package name: \"\") (walking it failed: a type the walk did not expect)): execcheck does not follow it"
		if s.Class != Unknown || s.Reason != want {
			t.Errorf("site at %s: got %s: %s, want unknown: %s", s.Posn, s.Class, s.Reason, want)
		}
	}
}

// recording is an analysistest.Testing that keeps what it is told.
type recording struct{ errs []string }

func (r *recording) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
