package proc_test

import (
	"testing"

	"github.com/exectest/exectest/internal/proc"
)

// linuxMode skips a test of the Linux mode (/proc, pidfds, cgroups, the
// subreaper) in the portable mode, which portable_test.go tests.
func linuxMode(t *testing.T) {
	t.Helper()
	if proc.Portable() {
		t.Skipf("a test of the Linux mode: %s=1 forces the portable mode", proc.PortableEnv)
	}
}
