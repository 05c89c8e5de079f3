package check

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/proc"
)

// portableNote says why the portable mode runs: forced on Linux, or the
// only mode on this system.
func portableNote() string {
	if runtime.GOOS == "linux" {
		return proc.PortableEnv + "=1"
	}
	return runtime.GOOS
}

// portableValue fails tb for a value of EXECTEST_PORTABLE that
// strconv.ParseBool does not accept: bad input, like a bad EXECTEST_STRICT.
func portableValue(tb testing.TB) {
	tb.Helper()
	if _, err := envswitch.Bool(proc.PortableEnv); err != nil {
		tb.Fatalf("exectest: %v", err)
	}
}

// portableUnsupported says why even the portable mode cannot run here, or
// "": a system where gopsutil cannot identify processes (NetBSD).
func portableUnsupported() string {
	if err := proc.Listable(); err != nil {
		return fmt.Sprintf("exectest: the portable mode (%s) cannot list processes here: %v", portableNote(), err)
	}
	if !proc.Portable() {
		return ""
	}
	if _, err := proc.Identify(os.Getpid()); err != nil {
		return fmt.Sprintf("exectest: the portable mode (%s) cannot identify processes here: %v", portableNote(), err)
	}
	return ""
}

// portableTracking starts the tracker's line in the portable mode.
const portableTracking = proc.PortableTracking

// portableLine is what every failure and skip of the portable mode says
// of it: that it is the portable mode, and what it cannot see. "" in the
// Linux mode.
func portableLine() string {
	if !proc.Portable() {
		return ""
	}
	return fmt.Sprintf("portable mode (%s; gopsutil, no /proc): cannot see %s", portableNote(), strings.Join(proc.CannotSee(), "; "))
}
