package check_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
)

// escapes are the descendant's two ways to live: in the command's process
// group, and escaped from it into a session of its own.
var escapes = []struct {
	name string
	opts []exectest.DescendantOption
}{
	{"plain", nil},
	{"escaping", []exectest.DescendantOption{exectest.Escaping()}},
}

// A runner that puts the command in a cgroup of its own and kills that
// cgroup on cancel (systemd, containerd and job runners do) stops the
// whole tree, the escaped descendant too: the check passes, and exectest
// tracks the fixture without taking it out of the runner's cgroup, which
// would make the runner's kill miss it and the check fail as hung. Also
// where the runner gives the command a cgroup namespace, in which its
// cgroup reads "/" (the test's own, when the test runs in the root
// cgroup).
func TestAssertCancelRunnerCgroup(t *testing.T) {
	systemtest.NeedSight(t, "cgroups")
	parent := runnerCgroupParent(t)
	nsErr := probeCgroupNamespace()
	for _, sh := range systemtest.Shapes {
		for _, esc := range escapes {
			for _, ns := range []bool{false, true} {
				name := sh.Name + "/" + esc.name
				if ns {
					name += "/cgroup namespace"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					if ns && nsErr != nil {
						t.Skipf("a runner that gives the command a cgroup namespace needs CAP_SYS_ADMIN (uid %d here): %v", os.Geteuid(), nsErr)
					}
					r := &cgroupRunner{parent: parent, killCgroup: true, namespace: ns}
					defer r.cleanup(t)
					var res exectest.Result
					f := systemtest.RunFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb, append(append([]exectest.DescendantOption(nil), esc.opts...), sh.Opts...)...)
						res = exectest.AssertCancel(tb, d, r.run(d.Argv()))
					})
					f.WantVerdict(t, "pass")
					r.check(t, res)
					t.Logf("tracked by: %s", res.Tracker)
				})
			}
		}
	}
}

// TestRunnerCgroupStress: the cgroup runner passes every time, and one
// that puts the command in a cgroup of its own but kills only the direct
// child is caught every time: the descendant it leaves in its cgroup is
// still tracked, and found alive after run returns.
func TestRunnerCgroupStress(t *testing.T) {
	systemtest.NeedSight(t, "cgroups")
	parent := runnerCgroupParent(t)
	cases := []struct {
		name       string
		killCgroup bool
		runs       int
		opts       []exectest.Option
		verdict    string
		wantText   []string
	}{
		{"cgroup killed", true, stressRuns(t, 20, 200), nil, "pass", nil},
		{"direct child killed", false, stressRuns(t, 8, 100), []exectest.Option{exectest.SettleTime(100 * time.Millisecond)},
			"fail", []string{"fixture processes alive after run returned: got 1, want 0", "(descendant"}},
	}
	for _, sh := range systemtest.Shapes {
		for _, esc := range escapes {
			for _, c := range cases {
				t.Run(sh.Name+"/"+esc.name+"/"+c.name, func(t *testing.T) {
					t.Parallel()
					got := 0
					for i := range c.runs {
						r := &cgroupRunner{parent: parent, killCgroup: c.killCgroup}
						var res exectest.Result
						f := systemtest.RunFake(t, func(tb testing.TB) {
							d := exectest.NewDescendant(tb, append(append([]exectest.DescendantOption(nil), esc.opts...), sh.Opts...)...)
							res = exectest.AssertCancel(tb, d, r.run(d.Argv()), c.opts...)
						})
						r.cleanup(t)
						rep := f.Recorded()
						want := c.wantText
						if !c.killCgroup && esc.name == "escaping" {
							// The command is contained already: the fix
							// is to kill its cgroup, not to make one.
							want = append(slices.Clip(want), "fix: the command runs in a cgroup of its own, "+r.parent+"/", "kill that cgroup on cancel")
						}
						if v := f.Verdict(); v != c.verdict || !containsAll(rep, want) {
							t.Errorf("run %d: got %s, want %s with %q:%s", i, v, c.verdict, want, rep)
							continue
						}
						r.check(t, res)
						got++
					}
					t.Logf("%s: %d of %d", c.verdict, got, c.runs)
				})
			}
		}
	}
}

// A runner that contains the command in a cgroup but kills only the
// direct child hangs on the escaped descendant: the fix names the
// runner's cgroup to kill, not a cgroup to make (the hang's fix is read
// before exectest kills the holders, while their cgroup can still be
// read). Applied (the runner writes 1 to that cgroup's cgroup.kill on
// cancel), the check passes.
func TestRunnerCgroupHangNamesItsCgroup(t *testing.T) {
	systemtest.NeedSight(t, "cgroups")
	parent := runnerCgroupParent(t)
	for _, sh := range systemtest.Shapes {
		for _, b := range builds {
			t.Run(sh.Name+"/"+b.name, func(t *testing.T) {
				t.Parallel()
				checkWith := func(r *cgroupRunner) systemtest.Fake {
					defer r.cleanup(t)
					return systemtest.RunFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb, append([]exectest.DescendantOption{exectest.Escaping()}, sh.Opts...)...)
						exectest.AssertCancel(tb, d, r.run(d.Argv()), exectest.Within(300*time.Millisecond))
					})
				}
				r := &cgroupRunner{parent: parent, hang: true, build: &b}
				f := checkWith(r)
				f.WantVerdict(t, "fail", "run did not return within the bound", "fixture processes tracked by: ", "runs in a cgroup the code under test chose")
				if got, want := fixLines(f.Recorded()), []string{check.FixKillCgroup(r.runs[0].dir)}; !slices.Equal(got, want) {
					t.Fatalf("fix lines: got %q, want %q", got, want)
				}
				checkWith(&cgroupRunner{parent: parent, killCgroup: true, build: &b}).WantVerdict(t, "pass")
			})
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
