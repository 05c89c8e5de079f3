//go:build windows

package exectest_test

import (
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
)

// No fixture runs on Windows yet: NewDescendant says so, and skips, or
// fails under EXECTEST_STRICT=1; it never passes.
func TestNewDescendantOnWindows(t *testing.T) {
	for strict, want := range map[string]string{"0": "skip", "1": "fail"} {
		t.Setenv("EXECTEST_STRICT", strict)
		f := systemtest.RunFake(t, func(tb testing.TB) { exectest.NewDescendant(tb) })
		f.WantVerdict(t, want, "no fixture runs on Windows yet", "neither /bin/sh nor FIFOs")
	}
}
