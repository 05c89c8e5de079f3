package testenv

import (
	"testing"

	"github.com/exectest/exectest/internal/proc"
)

// LinuxMode skips t, a test of the Linux mode (/proc, pidfds, cgroups,
// the child subreaper), in the portable mode, which tests of their own
// cover.
func LinuxMode(t testing.TB) {
	t.Helper()
	if proc.Portable() {
		t.Skipf("a test of the Linux mode: %s=1 forces the portable mode", proc.PortableEnv)
	}
}

// PortableMode skips t, a test of the portable mode, in the Linux mode:
// run it with EXECTEST_PORTABLE=1 (off Linux it always runs).
func PortableMode(t testing.TB) {
	t.Helper()
	if !proc.Portable() {
		t.Skipf("a test of the portable mode: run it with %s=1 (the only mode off Linux)", proc.PortableEnv)
	}
}
