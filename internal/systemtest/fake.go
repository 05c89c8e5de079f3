package systemtest

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/exectest/exectest/recorder"
)

// A Fake is a test run on a recording testing.TB, so that a test can show
// that a check fails on a broken runner.
type Fake struct{ *recorder.T }

// RunFake runs fn as a test on a recorder, then its cleanups.
func RunFake(t testing.TB, fn func(tb testing.TB)) Fake {
	t.Helper()
	return Fake{recorder.Run(t, t.Name(), fn)}
}

// RunFakeAs is RunFake under another test name. The early-cancel series
// are counted by name across -count runs (see TestEarlyCancelSeriesAcrossRows):
// a test of them names its fakes with FreshName, which no earlier run used.
func RunFakeAs(t testing.TB, name string, fn func(tb testing.TB)) Fake {
	t.Helper()
	return Fake{recorder.Run(t, name, fn)}
}

var freshNames atomic.Int64

// FreshName is a top-level test name that no other call in this process
// returns.
func FreshName(t testing.TB) string {
	return fmt.Sprintf("%s#%d", strings.ReplaceAll(t.Name(), "/", "_"), freshNames.Add(1))
}

// Recorded is everything recorded, indented for a test's own message.
func (f Fake) Recorded() string {
	var b strings.Builder
	for line := range strings.Lines(f.Report()) {
		b.WriteString("\n  " + strings.TrimSuffix(line, "\n"))
	}
	return b.String()
}

// WantVerdict fails t unless the fake ended as want and its messages hold
// every one of wantText.
func (f Fake) WantVerdict(t *testing.T, want string, wantText ...string) {
	t.Helper()
	if got := f.Verdict(); got != want {
		t.Fatalf("verdict: got %s, want %s; recorded:%s", got, want, f.Recorded())
	}
	rep := f.Recorded()
	// Under -v this is the verdict matrix: what each runner got, and why.
	t.Logf("verdict: %s, as expected%s", want, rep)
	for _, w := range wantText {
		if !strings.Contains(rep, w) {
			t.Errorf("message: got %s\nwant it to contain %q", rep, w)
		}
	}
}
