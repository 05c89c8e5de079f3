package envswitch_test

import (
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
)

func TestBool(t *testing.T) {
	const name = "EXECTEST_ENVSWITCH_TEST"
	for value, want := range map[string]bool{"": false, "1": true, "t": true, "T": true, "true": true, "TRUE": true, "True": true, "0": false, "f": false, "F": false, "false": false, "FALSE": false, "False": false} {
		t.Setenv(name, value)
		if got, err := envswitch.Bool(name); got != want || err != nil {
			t.Errorf("%s=%q: got %v, %v; want %v, nil", name, value, got, err, want)
		}
	}
	for _, value := range []string{"yes", "on", "2", " 1", "tRuE"} {
		t.Setenv(name, value)
		got, err := envswitch.Bool(name)
		if err == nil || got || !strings.Contains(err.Error(), name+`: got "`+value+`", want one of 1, t, T, true`) {
			t.Errorf("%s=%q: got %v, %v; want false and an error naming the accepted values", name, value, got, err)
		}
	}
}

func TestLong(t *testing.T) {
	for value, want := range map[string]bool{"": false, "long": true} {
		t.Setenv(envswitch.Stress, value)
		if got, err := envswitch.Long(); got != want || err != nil {
			t.Errorf("%s=%q: got %v, %v; want %v, nil", envswitch.Stress, value, got, err, want)
		}
	}
	for _, value := range []string{"1", "true", "short", "LONG"} {
		t.Setenv(envswitch.Stress, value)
		if _, err := envswitch.Long(); err == nil || !strings.Contains(err.Error(), "want long (CI's long form) or unset") {
			t.Errorf("%s=%q: got %v, want an error naming the accepted values", envswitch.Stress, value, err)
		}
	}
}

// tb records what Unmet reports; Fatalf and Skipf end nothing here, so
// the test looks at the first report only.
type tb struct{ fatal, skip []string }

func (r *tb) Helper()                           {}
func (r *tb) Fatalf(format string, args ...any) { r.fatal = append(r.fatal, format) }
func (r *tb) Skipf(format string, args ...any)  { r.skip = append(r.skip, format) }

func TestUnmet(t *testing.T) {
	for value, want := range map[string]string{"": "skip", "0": "skip", "false": "skip", "1": "fatal", "true": "fatal", "yes": "fatal"} {
		t.Setenv(envswitch.Strict, value)
		var r tb
		envswitch.Unmet(&r, "no %s here", "bwrap")
		got := "skip"
		if len(r.fatal) > 0 {
			got = "fatal"
		}
		if got != want {
			t.Errorf("%s=%q: got %s, want %s", envswitch.Strict, value, got, want)
		}
	}
}
