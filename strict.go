package exectest

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/recorder"
)

// strictEnv is the environment variable that, on (1, true: what
// strconv.ParseBool accepts), turns every skip for a check that would pass
// vacuously into a failure: for CI, where a missing prerequisite must not
// go unnoticed.
const strictEnv = envswitch.Strict

// strict reports whether strictEnv is on; a value strconv.ParseBool does
// not accept is bad input and fails the test.
func strict(tb testing.TB) bool {
	tb.Helper()
	on, err := envswitch.Bool(strictEnv)
	if err != nil {
		tb.Fatalf("exectest: %v", err)
	}
	return on
}

// skipVacuous skips a check that cannot prove anything here, or fails it
// under EXECTEST_STRICT=1. Both end the test's goroutine.
func skipVacuous(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if p := portableLine(); p != "" {
		msg += "\n(" + p + ")"
	}
	if strict(tb) {
		tb.Fatalf("%s\n(failing instead of skipping: %s is on)", msg, strictEnv)
	}
	// The toolkit's own tests skip on purpose, on a recorder: not counted.
	if _, rec := tb.(*recorder.T); !rec {
		vacuousSkips.Add(1)
	}
	tb.Skipf("%s\n(set %s=1 to make this a failure)", msg, strictEnv)
}

// vacuousSkips counts the checks this test binary skipped as vacuous, for
// the line [VerifyTestMain] writes at the end: a skip shows only under
// go test -v, and a package whose every check skips looks like a pass.
var vacuousSkips atomic.Int64

// skippedLine is what the end of a test binary says of its n vacuous
// skips, or "".
func skippedLine(n int64) string {
	if n == 0 {
		return ""
	}
	checks := "checks"
	if n == 1 {
		checks = "check"
	}
	return fmt.Sprintf("exectest: %d %s skipped as vacuous: they proved nothing here (each skip says why, under go test -v); set %s=1 in CI to make them failures", n, checks, strictEnv)
}
