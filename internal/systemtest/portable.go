//go:build unix

package systemtest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/proctest"
)

// portable says that the tests run in the portable mode: off Linux, or
// with EXECTEST_PORTABLE on (see .ci/run).
var Portable = proc.Portable()

// cannotSeeHolder is what a hang's message says in the portable mode in
// place of who holds the pipe.
const CannotSeeHolder = "portable mode: cannot see which of them, or which other process, holds the command's output pipe"

// reachable maps what a message must say in the Linux mode to what the
// portable mode can say: it cannot see who holds a pipe, so a message
// names none, and says so instead. The verdict stays the same.
func Reachable(want []string) []string {
	if !Portable {
		return want
	}
	out := []string{"cannot see who holds the command's pipes"} // in every message of the portable mode
	for _, w := range want {
		switch {
		case strings.Contains(w, "pipe:[") || strings.Contains(w, "holds the write end"):
			w = CannotSeeHolder
		case strings.Contains(w, "descriptors of the test process left open"):
			w = "which ends of the command's pipes the test process still holds"
		}
		out = append(out, w)
	}
	return out
}

// orphaned reports whether p's parent is the one an orphan gets: the test
// process, a child subreaper, in the Linux mode; in the portable mode,
// which has no subreaper, whoever the system gives orphans to (init, or a
// subreaper outside the test), never a process below the test process.
func Orphaned(p proctest.Process) bool {
	if !Portable {
		return p.PPID == os.Getpid()
	}
	return p.PPID != os.Getpid() && !slices.Contains(proc.Descendants(os.Getpid()), p.PPID)
}

// orphanParent says, for a message, which parent orphaned wants.
func OrphanParent() string {
	if !Portable {
		return fmt.Sprintf("the test process %d", os.Getpid())
	}
	return "a process outside the test's tree (portable mode: no child subreaper)"
}

// needSight skips a test whose verdict the portable mode cannot reach, for
// it cannot see what; never a pass in its place.
func NeedSight(t *testing.T, what string) {
	t.Helper()
	if Portable {
		t.Skipf("portable mode: cannot see %s, so this verdict is the Linux mode's only", what)
	}
}
