package exectest_test

import (
	"context"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/unsharetest"
)

// prefixed runs argv after prefix, through r.
func prefixed(prefix []string, r runner) runner {
	return func(argv []string) func(context.Context) error {
		return r(append(append([]string(nil), prefix...), argv...))
	}
}

// A command in a PID namespace of its own that reads the test's /proc
// (unshare --pid --fork without --mount-proc) reports the pids it has in
// the test's namespace. The check must prove it alive and pass a correct
// runner, and still catch a broken one.
func TestAssertCancelPIDNamespaceWithoutProc(t *testing.T) {
	needSight(t, "processes in another PID namespace")
	prefix := unsharetest.PIDNamespace(t)
	t.Logf("namespace by: %q", prefix)
	cases := []struct {
		name    string
		prefix  []string
		run     runner
		verdict string
		text    []string
	}{
		// Killing unshare kills the namespace's init, and with it the namespace.
		{"kill child/default cancel", prefix, defaultCancel, "pass", nil},
		{"kill child/policy", prefix, policy, "pass", nil},
		// Without --kill-child the namespace's init outlives unshare and
		// holds the command's output.
		{"no kill child/default cancel", unsharetest.WithoutKillChild(prefix), defaultCancel, "fail",
			[]string{"run did not return within the bound after cancel", "pipe:["}},
	}
	for _, sh := range shapes {
		for _, c := range cases {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				var res exectest.Result
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.opts...)
					res = exectest.AssertCancel(tb, d, prefixed(c.prefix, c.run)(d.Argv()))
				})
				f.wantVerdict(t, c.verdict, c.text...)
				if !res.Proved || res.DescendantPID == 0 {
					t.Errorf("result: got proved %v, descendant pid %d, want the descendant proved alive by its pid in the test's namespace", res.Proved, res.DescendantPID)
				}
			})
		}
	}
}
