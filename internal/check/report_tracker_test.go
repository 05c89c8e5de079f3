//go:build unix

package check_test

import (
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
)

// A failure says how the fixture's processes were tracked only where that
// bears on the verdict: in the portable mode, without a subreaper, or
// where the code under test chose the command's cgroup (see
// TestRunnerCgroupHangNamesItsCgroup). Elsewhere Result.Tracker keeps it.
// Before, every failure ended with "fixture processes tracked by: cgroup
// v2 /sys/fs/...".
func TestFailureSaysHowItTrackedOnlyWhereItMatters(t *testing.T) {
	for _, sh := range systemtest.Shapes {
		t.Run(sh.Name, func(t *testing.T) {
			t.Parallel()
			var res exectest.Result
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, sh.Opts...)
				res = exectest.AssertCancel(tb, d, systemtest.KillOnly(d.Argv()), exectest.Within(300*time.Millisecond))
			})
			f.WantVerdict(t, "fail")
			if res.Tracker == "" {
				t.Errorf("Result.Tracker: got \"\", want how the fixture was tracked")
			}
			matters := systemtest.Portable || strings.Contains(res.Tracker, "no subreaper") || strings.Contains(res.Tracker, "code under test chose")
			if said := strings.Contains(f.Recorded(), "fixture processes tracked by: "); said != matters {
				t.Errorf("tracker line: got said %v, want %v for %q:%s", said, matters, res.Tracker, f.Recorded())
			}
		})
	}
}
