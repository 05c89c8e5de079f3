package testenv

import (
	"testing"

	"github.com/exectest/exectest/internal/bwrap"
	"github.com/exectest/exectest/internal/envswitch"
)

// NeedBwrap skips t unless bubblewrap makes a sandbox here (see
// [bwrap.Probe]), or fails it under EXECTEST_STRICT=1: CI installs
// bubblewrap so that these tests run.
func NeedBwrap(t testing.TB) {
	t.Helper()
	if err := bwrap.Probe(); err != nil {
		envswitch.Unmet(t, "bubblewrap: got %v, want a sandbox", err)
	}
}
