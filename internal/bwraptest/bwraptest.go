// Package bwraptest gives exectest's own tests a bubblewrap sandbox, or
// the exact reason there is none.
package bwraptest

import (
	"os"
	"os/exec"
	"testing"
)

// SharedPID sandboxes a command in the host's PID namespace.
var SharedPID = []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}

// UnsharedPID gives the sandbox a PID namespace of its own that dies with
// bwrap.
var UnsharedPID = append(append([]string(nil), SharedPID...), "--unshare-pid", "--die-with-parent")

// Need skips tb unless bubblewrap makes a sandbox here, or fails it under
// EXECTEST_STRICT=1: CI installs bubblewrap so that these tests run.
func Need(tb testing.TB) {
	tb.Helper()
	err := exec.Command("bwrap", append(SharedPID, "/bin/true")...).Run()
	if err == nil {
		return
	}
	if os.Getenv("EXECTEST_STRICT") == "1" {
		tb.Fatalf("bubblewrap: got %v, want a working bwrap (apt-get install bubblewrap)", err)
	}
	tb.Skipf("bubblewrap: got %v, want a working bwrap (apt-get install bubblewrap; EXECTEST_STRICT=1 fails instead)", err)
}
