package execcheck_test

import (
	"strings"
	"testing"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/analysistest"
)

// jobAdvice is how a fix ends on Windows: the job object cancelpolicy
// puts the command in.
const jobAdvice = "cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included (Windows)"

// unixAdvice is what no diagnostic or fix for Windows may say: syscall
// has no Setpgid, Setsid or Kill there, and no process group to kill.
var unixAdvice = []string{"Setpgid", "Setsid", "Kill(-", "SIGKILL", "process group", "the group", "cgroup", "Contain", "Graceful"}

// TestJobObjects analyzes package jobs for windows: a _windows.go file
// and a //go:build windows one, whose code is package jobsplain's. A
// cancel that reaches only the direct child is a finding there as on
// Unix (hang or orphan: the default Cancel, a Cancel that calls
// Process.Kill, cancelpolicy.Apply, which makes no job object, the
// launcher shape, a StdoutPipe read to EOF), since cancelpolicy.Run
// terminates the job object the whole tree runs in. The findings advise
// cancelpolicy.Run with that job object, and never a process group; -fix
// rewrites them to cancelpolicy.Run, with .golden files, where
// jobsplain's Contain (a cgroup, Linux) would not. TestClasses and
// TestFixes pin jobsplain's advice on Unix.
func TestJobObjects(t *testing.T) {
	t.Setenv("GOOS", "windows")
	t.Setenv("GOARCH", "amd64")
	t.Setenv("CGO_ENABLED", "0")
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/jobs")
	n := 0
	for _, r := range results {
		for _, d := range r.Action.Diagnostics {
			n++
			if !strings.HasSuffix(d.Message, jobAdvice) {
				t.Errorf("%s: got %q, want the job object advice at its end", r.Action.Package.Fset.Position(d.Pos), d.Message)
			}
			for _, u := range unixAdvice {
				if strings.Contains(d.Message, u) {
					t.Errorf("%s: got %q, want no %q on Windows", r.Action.Package.Fset.Position(d.Pos), d.Message, u)
				}
			}
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					for _, u := range []string{"Setpgid", "Setsid", "Kill(-"} {
						if strings.Contains(string(e.NewText), u) {
							t.Errorf("%s: fix inserts %q, which does not build on Windows", r.Action.Package.Fset.Position(d.Pos), e.NewText)
						}
					}
				}
			}
		}
	}
	if n != 12 {
		t.Errorf("got %d diagnostics in package jobs for windows, want 12 (10 in jobs_windows.go, 2 in tagged.go)", n)
	}
}

// TestJobObjectSites: in -sites, cancelpolicy.Run is ok on Windows for the
// job object, not a process group, and a finding's fix advises the job
// object also in a plain file of a windows build (peros's Build: the
// build, not the file name, says Windows). The classes are Unix's, where
// the job object changes the outcome: a site whose cancel reaches the
// direct child alone is an orphan there too (Bounded, KillCancel,
// Launch), and so is one through cancelpolicy.Apply, which makes no job
// object (Applied, AppliedWaiting; on Unix, a launcher and ok). On Unix
// the advice is today's.
func TestJobObjectSites(t *testing.T) {
	jobs := sitesOf(t, "windows", "example.com/t/jobs")
	peros := sitesOf(t, "windows", "example.com/t/peros")
	plain := sitesOf(t, "linux", "example.com/t/jobsplain")
	for _, c := range []struct {
		goos, fn     string
		sites        map[string]execcheck.Site
		class        execcheck.Class
		reason, fix  string
		notInReasons string
	}{
		{"windows", "Policy", jobs, execcheck.OK, "cancelpolicy.Run: a cancel terminates the command's job object, descendants included, also after the direct child exited", "", "process group"},
		{"windows", "PolicyTagged", jobs, execcheck.OK, "a cancel terminates the command's job object", "", "process group"},
		{"windows", "Nohup", jobs, execcheck.Hang, "nothing bounds Wait", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "Contain"},
		{"windows", "Watch", jobs, execcheck.Hang, "nothing bounds Wait", "start it with cancelpolicy.Start(ctx, cmd) and call the Wait it returns, in place of the kill by hand: " + jobAdvice, "Setpgid"},
		{"windows", "Build", peros, execcheck.Hang, "nothing bounds Wait", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "Setpgid"},
		{"windows", "Bounded", jobs, execcheck.Orphan, "a cancel kills only the direct child (exec.CommandContext's default Cancel (Process.Kill)); Wait returns in bounded time (WaitDelay = time.Second)", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "group"},
		{"windows", "KillCancel", jobs, execcheck.Orphan, "a cancel kills only the direct child (cmd.Process.Kill())", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "group"},
		{"windows", "Launch", jobs, execcheck.Orphan, "a cancel kills only the direct child (exec.CommandContext's default Cancel (Process.Kill))", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "group"},
		{"windows", "Applied", jobs, execcheck.Orphan, "a cancel kills only the direct child (cancelpolicy.Apply's Cancel, which terminates the direct child only on Windows: Apply makes no job object)", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "group"},
		{"windows", "AppliedWaiting", jobs, execcheck.Orphan, "cancelpolicy.Apply's Cancel, which terminates the direct child only on Windows", "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice, "group"},
		{"windows", "Stream", jobs, execcheck.Hang, "stdout is read from StdoutPipe() until EOF (bufio.NewScanner), which WaitDelay does not close", "start it with cancelpolicy.Start(ctx, cmd) and call the Wait it returns: " + jobAdvice, "group"},
		{"linux", "Policy", plain, execcheck.OK, "cancelpolicy.Run: a cancel kills the command's process group, also after the direct child exited", "", "job object"},
		{"linux", "Applied", plain, execcheck.Launcher, "Cancel kills the group (cancelpolicy.Apply's Cancel kills the group)", "run it with cancelpolicy.Run(ctx, cmd)", "job object"},
		{"linux", "AppliedWaiting", plain, execcheck.OK, "Cancel kills the group (cancelpolicy.Apply's Cancel kills the group) and Wait is bounded", "", "job object"},
		{"linux", "Bounded", plain, execcheck.Orphan, "a cancel kills only the direct child", "run it with cancelpolicy.Run(ctx, cmd)", "job object"},
		{"linux", "Nohup", plain, execcheck.Hang, "a cancel kills only the direct child", "run it with cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain()) (the command line runs nohup: only a cgroup of its own stops what leaves the group; Linux)", "job object"},
	} {
		s, ok := c.sites[c.fn]
		if !ok {
			t.Errorf("%s: no site in %s", c.goos, c.fn)
			continue
		}
		if s.Class != c.class || !strings.Contains(s.Reason, c.reason) || s.Fix != c.fix || strings.Contains(s.Reason+s.Fix, c.notInReasons) {
			t.Errorf("%s, %s: got %s (%s; fix: %q), want %s with %q (fix: %q), no %q", c.goos, c.fn, s.Class, s.Reason, s.Fix, c.class, c.reason, c.fix, c.notInReasons)
		}
	}
}
