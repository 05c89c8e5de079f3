package proctest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/proctest"
)

// Bad options are reported where they are used: Find returns them,
// VerifyNone fails with them.
var badOptions = map[string]struct {
	opt  proctest.Option
	want string
}{
	"zero max wait":     {proctest.MaxWait(0), "proctest.MaxWait: got 0s, want > 0"},
	"negative max wait": {proctest.MaxWait(-time.Second), "proctest.MaxWait: got -1s, want > 0"},
	"nil ignore func":   {proctest.IgnoreProcess(nil), "proctest.IgnoreProcess: f: got nil"},
}

func TestFindReportsBadOptions(t *testing.T) {
	for name, c := range badOptions {
		t.Run(name, func(t *testing.T) {
			if err := proctest.Find(proctest.IgnoreCurrent(), c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Find: got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// A value of EXECTEST_PORTABLE that strconv.ParseBool does not accept is
// bad input too: before, it silently chose the Linux mode.
func TestFindReportsBadPortableValue(t *testing.T) {
	t.Setenv("EXECTEST_PORTABLE", "yes")
	want := `proctest: EXECTEST_PORTABLE: got "yes", want one of 1, t, T, true, TRUE or True (on)`
	if err := proctest.Find(proctest.IgnoreCurrent()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Find: got %v, want an error containing %q", err, want)
	}
	t.Setenv("EXECTEST_PORTABLE", "false")
	if err := proctest.Find(proctest.IgnoreCurrent()); err != nil {
		t.Errorf("Find with EXECTEST_PORTABLE=false: got %v, want nil", err)
	}
}

func TestVerifyNoneReportsBadOptions(t *testing.T) {
	for name, c := range badOptions {
		t.Run(name, func(t *testing.T) {
			var rt recordingT
			proctest.VerifyNone(&rt, proctest.IgnoreCurrent(), c.opt)
			if !strings.Contains(rt.text(), c.want) {
				t.Errorf("VerifyNone: got %q, want a failure containing %q", rt.text(), c.want)
			}
		})
	}
}
