package execcheck

// A test's context: t.Context() (of a *testing.T, B or F, or a
// testing.TB) is done just before the test's Cleanup functions run,
// after the test function returned. A Run, Output or CombinedOutput in
// the body that took it (not in a goroutine, not deferred) ends before
// that: no cancel comes while it runs. A Start, or a run elsewhere, may
// still run when the test function returns: the cancel counts there.

import "go/types"

// isTestContext reports whether fn is the Context method of testing's
// T, B, F or TB.
func isTestContext(fn *types.Func) bool {
	return fn != nil && fn.Name() == "Context" && pkgPathOf(fn) == "testing"
}

// testRunsBefore reports whether the run rs ends before c's test context
// can be done: a run that waits, inline in the body that took it.
func testRunsBefore(rs *runSite, c creation) bool {
	switch rs.kind {
	case runRun, runOutput, runCombined:
		return rs.inline && rs.scope == c.CtxScope && c.CtxScope != 0
	}
	return false
}
