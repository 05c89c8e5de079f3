package exectest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/exectest/exectest"
)

// needBwrap skips unless bubblewrap runs here, or fails under
// EXECTEST_STRICT=1: CI installs it so that these cases run.
func needBwrap(t *testing.T) {
	t.Helper()
	err := exec.Command("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "/bin/true").Run()
	if err == nil {
		return
	}
	if os.Getenv(exectest.StrictEnv) == "1" {
		t.Fatalf("bubblewrap: got %v, want a working bwrap (apt-get install bubblewrap)", err)
	}
	t.Skipf("bubblewrap: got %v, want a working bwrap (apt-get install bubblewrap; %s=1 fails instead)", err, exectest.StrictEnv)
}

// sandboxed runs argv inside bwrap with the given flags, through r.
func sandboxed(flags []string, r runner) runner {
	return func(argv []string) func(context.Context) error {
		return r(append(append([]string{"bwrap"}, flags...), argv...))
	}
}

var (
	// sharedPID shares the host's PID namespace: the bug shows.
	sharedPID = []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	// unsharedPID kills the sandbox's whole PID namespace with bwrap: the bug hides.
	unsharedPID = append(append([]string(nil), sharedPID...), "--unshare-pid", "--die-with-parent")
	// noSleep is a root where /bin/sh runs but /bin/sleep does not exist.
	noSleep = []string{"--ro-bind", "/", "/", "--tmpfs", "/usr/bin", "--tmpfs", "/bin", "--ro-bind", "/usr/bin/dash", "/bin/sh", "--dev", "/dev", "--proc", "/proc"}
	// noDev is a root with an empty /dev.
	noDev = []string{"--ro-bind", "/", "/", "--tmpfs", "/dev", "--proc", "/proc"}
	// noProc is a root without /proc.
	noProc = []string{"--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/proc"}
)

func TestAssertCancelSandbox(t *testing.T) {
	needBwrap(t)
	cases := []struct {
		name     string
		flags    []string
		run      runner
		verdict  map[string]string // shape -> verdict
		wantText string
	}{
		{"shared pid/default cancel", sharedPID, defaultCancel, both("fail"), "pipe:["},
		{"shared pid/fixed", sharedPID, fixed, both("pass"), ""},
		{"shared pid/policy", sharedPID, policy, both("pass"), ""},
		{"unshared pid/default cancel", unsharedPID, defaultCancel, both("pass"), ""},
		{"no /bin/sleep/policy", noSleep, policy, map[string]string{"shell": "skip", "hermetic": "pass"}, "/bin/sleep cannot run here"},
		{"no /dev/policy", noDev, policy, both("skip"), "/dev/null"},
		{"no /proc/policy", noProc, policy, both("skip"), "mount /proc where the command runs"},
	}
	// A /bin/sleep that is there but cannot run: its interpreter is missing.
	broken := filepath.Join(t.TempDir(), "sleep")
	os.WriteFile(broken, []byte("#!/nonexistent/interpreter\n"), 0o755)
	cases = append(cases, struct {
		name     string
		flags    []string
		run      runner
		verdict  map[string]string
		wantText string
	}{"broken /bin/sleep/policy", []string{"--ro-bind", "/", "/", "--ro-bind", broken, "/usr/bin/sleep", "--dev", "/dev", "--proc", "/proc"}, policy,
		map[string]string{"shell": "skip", "hermetic": "pass"}, "instead of becoming /bin/sleep"})
	for _, sh := range shapes {
		for _, c := range cases {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				t.Setenv(exectest.StrictEnv, "0")
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.opts...)
					exectest.AssertCancel(tb, d, sandboxed(c.flags, c.run)(d.Argv()))
				})
				want := c.verdict[sh.name]
				var text []string
				if want != "pass" && c.wantText != "" {
					text = append(text, c.wantText)
				}
				f.wantVerdict(t, want, text...)
			})
		}
	}
}

func both(v string) map[string]string { return map[string]string{"shell": v, "hermetic": v} }
