// Package envswitch reads exectest's on/off switches, the EXECTEST_*
// environment variables, all one way: unset or empty is off, and a value
// is what [strconv.ParseBool] accepts. Anything else is bad input, which
// the caller reports (a switch is read where no testing.TB may exist).
package envswitch

import (
	"fmt"
	"os"
	"strconv"
)

// The switches.
const (
	// Strict turns every skip for a missing prerequisite, or for a check
	// that would pass vacuously, into a failure: for CI.
	Strict = "EXECTEST_STRICT"
	// Portable runs the checks on Linux in the portable mode that macOS
	// and the BSDs run.
	Portable = "EXECTEST_PORTABLE"
	// Stress sizes the stress tests: not a switch but a level, "long"
	// for CI's long form, unset for the short one (see [Long]).
	Stress = "EXECTEST_STRESS"
)

// accepted is what a bad value's message says to set instead.
const accepted = "1, t, T, true, TRUE or True (on); 0, f, F, false, FALSE, False or unset (off)"

// Bool reads the switch name: false when it is unset or empty, else its
// value as [strconv.ParseBool] reads it, or an error naming the accepted
// values.
func Bool(name string) (bool, error) {
	v := os.Getenv(name)
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: got %q, want one of %s", name, v, accepted)
	}
	return on, nil
}

// Long reads [Stress]: true for "long", false when it is unset or
// empty, or an error naming the accepted values.
func Long() (bool, error) {
	switch v := os.Getenv(Stress); v {
	case "":
		return false, nil
	case "long":
		return true, nil
	default:
		return false, fmt.Errorf("%s: got %q, want long (CI's long form) or unset (the short one)", Stress, v)
	}
}

// TB is the part of testing.TB that [Unmet] uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Unmet reports a missing prerequisite of a test: it skips tb with the
// reason, or fails it when [Strict] is on. A bad value of [Strict] fails
// tb, naming the accepted values.
func Unmet(tb TB, format string, args ...any) {
	tb.Helper()
	strict, err := Bool(Strict)
	msg := fmt.Sprintf(format, args...)
	switch {
	case err != nil:
		tb.Fatalf("%s\n(failing instead of skipping: %v)", msg, err)
	case strict:
		tb.Fatalf("%s\n(failing instead of skipping: %s is on)", msg, Strict)
	}
	tb.Skipf("%s\n(set %s=1 to make this a failure)", msg, Strict)
}
