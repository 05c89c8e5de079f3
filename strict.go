package exectest

import (
	"fmt"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
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
	tb.Skipf("%s\n(set %s=1 to make this a failure)", msg, strictEnv)
}
