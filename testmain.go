package exectest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/exectest/exectest/fixtures"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/proctest"
	"go.uber.org/goleak"
)

// VerifyTestMain is a TestMain for a package that uses exectest:
//
//	func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
//
// It lets the test binary serve as the [Hermetic] fixture, makes it a
// child subreaper (so that escaped orphans stay visible), runs the tests,
// and then fails a passing run that leaves goroutines (goleak, with the
// goroutines present before the tests ignored, and its retries) or
// processes ([proctest.Find]) behind. Checked once after all tests, it is
// right under t.Parallel, as goleak's own VerifyTestMain is.
func VerifyTestMain(m *testing.M) {
	fixtures.Dispatch()
	os.Exit(verifyTestMain(m, os.Stderr))
}

func verifyTestMain(m interface{ Run() int }, stderr io.Writer) int {
	// The portable mode has no subreaper by design, and says what it
	// cannot see in every check: no line for it here.
	if err := proc.EnableSubreaper(); err != nil && !proc.Portable() {
		fmt.Fprintf(stderr, "exectest: no child subreaper (%v): escaped orphans go unseen\n", err)
	}
	goBase, procBase := goleak.IgnoreCurrent(), proctest.IgnoreCurrent()
	code := m.Run()
	if code != 0 {
		return code
	}
	if err := goleak.Find(goBase); err != nil {
		// goleak v1.3.0 lists one "[Goroutine N in state ...]" per leak.
		n := strings.Count(err.Error(), "Goroutine ")
		fmt.Fprintf(stderr, "exectest: goroutines left running after a passing run: got %d, want 0 (found by goleak):\n%v\n", n, err)
		code = 1
	}
	if err := proctest.Find(procBase); err != nil {
		fmt.Fprintf(stderr, "%v\n(the tests passed; these processes were left behind, and are killed now)\n", err)
		code = 1
	}
	return code
}
