package exectest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/exectest/exectest/fixtures"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/proctest"
	"go.uber.org/goleak"
)

// VerifyTestMain runs the tests of a package that uses exectest, then
// fails a passing run that leaves goroutines (found by goleak) or
// processes (found by [proctest.Find], and killed) behind, and says how
// many checks skipped as vacuous. It is the one TestMain such a package
// needs, and serves as the [Hermetic] fixture:
//
//	func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
//
// A TestMain with setup of its own calls [fixtures.Dispatch] first. Bad
// options, or a bad EXECTEST_STRICT or EXECTEST_PORTABLE, fail the run
// before any test. docs/how-it-works.md tells the rest.
func VerifyTestMain(m *testing.M, opts ...MainOption) {
	fixtures.Dispatch()
	os.Exit(verifyTestMain(m, os.Stderr, opts...))
}

func verifyTestMain(m interface{ Run() int }, stderr io.Writer, opts ...MainOption) int {
	cfg := newMainConfig(opts)
	for _, name := range []string{check.StrictEnv, proc.PortableEnv} {
		if _, err := envswitch.Bool(name); err != nil {
			cfg.errs = append(cfg.errs, "exectest: "+err.Error())
		}
	}
	if len(cfg.errs) > 0 {
		fmt.Fprintf(stderr, "%s\n(no test ran)\n", strings.Join(cfg.errs, "\n"))
		return cfg.cleanup(2)
	}
	// The portable mode has no subreaper by design, and says what it
	// cannot see in every check: no line for it here.
	if err := proc.EnableSubreaper(); err != nil && !proc.Portable() {
		fmt.Fprintf(stderr, "exectest: no child subreaper (%v): escaped orphans go unseen\n", err)
	}
	goBase, procBase := goleak.IgnoreCurrent(), proctest.IgnoreCurrent()
	skippedBefore := check.VacuousSkips()
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(append([]goleak.Option{goBase}, cfg.goroutines...)...); err != nil {
			// goleak v1.3.0 lists one "[Goroutine N in state ...]" per leak.
			n := strings.Count(err.Error(), "Goroutine ")
			fmt.Fprintf(stderr, "exectest: goroutines left running after a passing run: got %d, want 0 (found by goleak):\n%v\n", n, err)
			code = 1
		}
		procs := reporter{w: stderr, after: "(after a passing run)"}
		proctest.VerifyNone(&procs, append([]proctest.Option{procBase}, cfg.processes...)...)
		if procs.failed {
			code = 1
		}
	} else {
		// A failing run's processes are killed too, and listed, but its
		// failure stays the one the tests reported.
		proctest.VerifyNone(&reporter{w: stderr, after: "(after a failing run: its failure stands)"}, append([]proctest.Option{procBase}, cfg.processes...)...)
	}
	if line := check.SkippedLine(check.VacuousSkips() - skippedBefore); line != "" {
		fmt.Fprintln(stderr, line)
	}
	return cfg.cleanup(code)
}

// reporter is the proctest.TestingT of the check after the tests: it
// writes the report where the test binary's own go, and after it what
// run it followed.
type reporter struct {
	w      io.Writer
	after  string
	failed bool
}

func (r *reporter) Helper() {}
func (r *reporter) Errorf(format string, args ...any) {
	r.failed = true
	fmt.Fprintf(r.w, "%s\n%s\n", fmt.Sprintf(format, args...), r.after)
}
