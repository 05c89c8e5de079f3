package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

var (
	// sharedPID shares the host's PID namespace: the bug shows.
	sharedPID = testenv.BwrapArgs()
	// unsharedPID kills the sandbox's whole PID namespace with bwrap: the bug hides.
	unsharedPID = testenv.BwrapArgs(testenv.BwrapUnsharePID())
	// noSleep is a root where /bin/sh runs but /bin/sleep does not exist.
	noSleep = testenv.BwrapArgs(testenv.BwrapHide("/usr/bin"), testenv.BwrapHide("/bin"), testenv.BwrapBind("/usr/bin/dash", "/bin/sh"))
	// noDev is a root with an empty /dev.
	noDev = testenv.BwrapArgs(testenv.BwrapNoDev())
	// noProc is a root without /proc.
	noProc = testenv.BwrapArgs(testenv.BwrapNoProc())
)

func TestAssertCancelSandbox(t *testing.T) {
	testenv.NeedBwrap(t)
	// A /bin/sleep that is there but cannot run: its interpreter is missing.
	broken := filepath.Join(t.TempDir(), "sleep")
	if err := os.WriteFile(broken, []byte("#!/nonexistent/interpreter\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		sandbox  []string
		run      systemtest.Runner
		verdict  map[string]string // shape -> verdict
		wantText string
	}{
		{"shared pid/default cancel", sharedPID, systemtest.DefaultCancel, both("fail"), "pipe:["},
		{"shared pid/fixed", sharedPID, systemtest.Fixed, both("pass"), ""},
		{"shared pid/policy", sharedPID, systemtest.Policy, both("pass"), ""},
		{"unshared pid/default cancel", unsharedPID, systemtest.DefaultCancel, both("pass"), ""},
		{"no /bin/sleep/policy", noSleep, systemtest.Policy, map[string]string{"shell": "skip", "hermetic": "pass"}, "/bin/sleep cannot run here"},
		{"no /dev/policy", noDev, systemtest.Policy, both("skip"), "/dev/null"},
		{"no /proc/policy", noProc, systemtest.Policy, both("skip"), "mount /proc where the command runs"},
		{"broken /bin/sleep/policy", testenv.BwrapArgs(testenv.BwrapBind(broken, "/usr/bin/sleep")), systemtest.Policy,
			map[string]string{"shell": "skip", "hermetic": "pass"}, "instead of becoming /bin/sleep"},
	}
	for _, sh := range systemtest.Shapes {
		for _, c := range cases {
			t.Run(sh.Name+"/"+c.name, func(t *testing.T) {
				t.Setenv("EXECTEST_STRICT", "0")
				var res exectest.Result
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.Opts...)
					res = exectest.AssertCancel(tb, d, prefixed(c.sandbox, c.run)(d.Argv()))
				})
				want, wantText := c.verdict[sh.Name], c.wantText
				if want == "pass" && f.Verdict() == "fail" && len(res.OrphanedInits) > 0 {
					// bwrap arms --die-with-parent only once the command
					// runs (containers/bubblewrap#633): killed sooner, it
					// leaves its sandbox running, and the failure is right.
					t.Logf("got fail, want pass, but the sandbox's init outlived bwrap (its --die-with-parent armed too late): the failure is right:%s", f.Recorded())
					return
				}
				if w, ok := portableSandbox[c.name]; ok && systemtest.Portable {
					want, wantText = w.verdict, w.text
				}
				var text []string
				if want != "pass" && wantText != "" {
					text = append(text, wantText, fixes[wantText])
				}
				f.WantVerdict(t, want, text...)
			})
		}
	}
}

// portableSandbox is what the portable mode finds where it differs: it
// cannot see who holds the pipe, nor follow a PID namespace of the
// sandbox's own (a skip that says so, never a pass), and it reads no
// /proc, so a sandbox without one changes nothing.
var portableSandbox = map[string]struct{ verdict, text string }{
	"shared pid/default cancel":   {"fail", "portable mode: cannot see which of them"},
	"unshared pid/default cancel": {"skip", "portable mode: not below the test process"},
	"no /proc/policy":             {"pass", ""},
}

// fixes is the fix line a vacuous check gives for what the fixture said.
var fixes = map[string]string{
	"/bin/sleep cannot run here":                "fix: make /bin/sleep a working sleep where the command runs",
	"instead of becoming /bin/sleep":            "fix: make /bin/sleep a working sleep where the command runs",
	"/dev/null":                                 "fix: give the command a /dev where it runs (bwrap: --dev /dev)",
	"mount /proc where the command runs":        "fix: mount /proc where the command runs (bwrap: --proc /proc)",
	"pipe:[":                                    "fix: start the command in a process group of its own",
	"portable mode: cannot see which of them":   "fix: start the command in a process group of its own",
	"portable mode: not below the test process": "fix: the portable mode follows only processes below the test process",
}

func both(v string) map[string]string { return map[string]string{"shell": v, "hermetic": v} }

// Identical sandboxes with PID namespaces of their own, started together,
// report the same pids and start times. Each check must follow its own
// fixture: CI once saw a check take another sandbox's descendant for its
// own, and skip when that one died.
func TestParallelSandboxesKeepTheirOwnFixtures(t *testing.T) {
	systemtest.NeedSight(t, "processes in another PID namespace")
	testenv.NeedBwrap(t)
	var mu sync.Mutex
	claimed := map[int]string{} // by pid in the test's namespace: unique among live processes
	for _, sh := range systemtest.Shapes {
		for i := range 6 {
			t.Run(fmt.Sprintf("%s/%d", sh.Name, i), func(t *testing.T) {
				t.Parallel()
				var res exectest.Result
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.Opts...)
					res = exectest.AssertCancel(tb, d, prefixed(unsharedPID, systemtest.Fixed)(d.Argv()))
				})
				f.WantVerdict(t, "pass")
				if !res.Proved {
					t.Fatalf("Result.Proved: got false, want the descendant proved alive")
				}
				mu.Lock()
				defer mu.Unlock()
				if other, ok := claimed[res.DescendantPID]; ok {
					t.Errorf("descendant pid %d: got claimed by this check and by %s, want each check's own", res.DescendantPID, other)
				}
				claimed[res.DescendantPID] = t.Name()
			})
		}
	}
}
