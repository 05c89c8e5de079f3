package exectest

import (
	"fmt"
	"os"
	"testing"
)

// strictEnv is the environment variable that, set to 1, turns every skip
// for a check that would pass vacuously into a failure: for CI, where a
// missing prerequisite must not go unnoticed.
const strictEnv = "EXECTEST_STRICT"

// strict reports whether strictEnv is set; a value other than 0 or 1 is
// bad input and fails the test.
func strict(tb testing.TB) bool {
	tb.Helper()
	switch v := os.Getenv(strictEnv); v {
	case "", "0":
		return false
	case "1":
		return true
	default:
		tb.Fatalf("exectest: %s: got %q, want 1 (strict) or 0", strictEnv, v)
		return true
	}
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
		tb.Fatalf("%s\n(failing instead of skipping: %s=1)", msg, strictEnv)
	}
	tb.Skipf("%s\n(set %s=1 to make this a failure)", msg, strictEnv)
}
