package exectest

import (
	"fmt"
	"os"
	"testing"

	"github.com/exectest/exectest/fixtures"
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
	os.Exit(verifyTestMain(m))
}

func verifyTestMain(m interface{ Run() int }) int {
	if err := proctest.EnableSubreaper(); err != nil {
		fmt.Fprintf(os.Stderr, "exectest: no child subreaper (%v): escaped orphans go unseen\n", err)
	}
	goBase, procBase := goleak.IgnoreCurrent(), proctest.IgnoreCurrent()
	code := m.Run()
	if code != 0 {
		return code
	}
	if err := goleak.Find(goBase); err != nil {
		fmt.Fprintf(os.Stderr, "exectest: goroutines left after a passing run: %v\n", err)
		code = 1
	}
	if err := proctest.Find(procBase); err != nil {
		fmt.Fprintf(os.Stderr, "exectest: processes left after a passing run: %v\n", err)
		code = 1
	}
	return code
}
