//go:build unix

package exectest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
)

// A failure says how the fixture's processes were tracked only where that
// bears on the verdict: in the portable mode, without a subreaper, or
// where the code under test chose the command's cgroup (see
// TestRunnerCgroupHangNamesItsCgroup). Elsewhere Result.Tracker keeps it.
// Before, every failure ended with "fixture processes tracked by: cgroup
// v2 /sys/fs/...".
func TestFailureSaysHowItTrackedOnlyWhereItMatters(t *testing.T) {
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			var res exectest.Result
			f := runFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, sh.opts...)
				res = exectest.AssertCancel(tb, d, killOnly(d.Argv()), exectest.Within(300*time.Millisecond))
			})
			f.wantVerdict(t, "fail")
			if res.Tracker == "" {
				t.Errorf("Result.Tracker: got \"\", want how the fixture was tracked")
			}
			matters := portable || strings.Contains(res.Tracker, "no subreaper") || strings.Contains(res.Tracker, "code under test chose")
			if said := strings.Contains(f.report(), "fixture processes tracked by: "); said != matters {
				t.Errorf("tracker line: got said %v, want %v for %q:%s", said, matters, res.Tracker, f.report())
			}
		})
	}
}
