package execcheck_test

import (
	"os"
	"strings"
	"testing"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// sitesOf analyzes the testdata package pkg for goos and returns its
// exec sites by the function they are in.
func sitesOf(t *testing.T, goos, pkg string) map[string]execcheck.Site {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  analysistest.TestData(),
		Env:  append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0", "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("%s for %s: load errors", pkg, goos)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{execcheck.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]execcheck.Site{}
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		for _, s := range act.Result.(*execcheck.Result).Sites {
			out[funcAt(t, s.Posn.Filename, s.Posn.Line)] = s
		}
	}
	return out
}

// funcAt names the function declared last before line.
func funcAt(t *testing.T, file string, line int) string {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	for i, l := range strings.Split(string(b), "\n") {
		if i+1 > line {
			break
		}
		if rest, ok := strings.CutPrefix(l, "func "); ok {
			name = strings.FieldsFunc(rest, func(r rune) bool { return r == '(' || r == ' ' })[0]
		}
	}
	return name
}

// TestPerOS analyzes the package that hardens its commands in a _unix.go
// file with no-op twins for Windows and the other systems, once per
// build, and pins each build's answers for its three sites.
//
// Linux: the helper's group kill and WaitDelay make Build and Serve ok,
// and Launch, a shim, a launcher. Windows: the helper does nothing, and
// the default Cancel terminates the direct child alone, where
// cancelpolicy.Run terminates the job object the tree runs in: Build,
// whose Wait nothing bounds, hangs; Serve and Launch, which bound their
// Wait, orphan; each fix names the job object. Plan 9: neither groups nor
// job objects, and no cancelpolicy (TestNoPolicyWithoutGroupsOrJobs):
// only Build is a finding, a hang, whose fix is a WaitDelay, and the
// others are ok for want of anything more to reach.
func TestPerOS(t *testing.T) {
	const (
		defaultCancel = "a cancel kills only the direct child (exec.CommandContext's default Cancel (Process.Kill))"
		noGroups      = "no process groups on this system: a cancel reaches the direct child only"
		jobFix        = "run it with cancelpolicy.Run(ctx, cmd): " + jobAdvice
	)
	sites := map[string]map[string]execcheck.Site{}
	for _, goos := range []string{"linux", "windows", "plan9"} {
		sites[goos] = sitesOf(t, goos, "example.com/t/peros")
	}
	for _, c := range []struct {
		goos, fn    string
		class       execcheck.Class
		reason, fix string
	}{
		{"linux", "Build", execcheck.OK, "Cancel kills the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)) and Wait is bounded (WaitDelay = 2 * time.Second (in harden)); go is not a known launcher", ""},
		{"linux", "Serve", execcheck.OK, "Wait is bounded (WaitDelay = 2 * time.Second (in harden))", ""},
		{"linux", "Launch", execcheck.Launcher, "Cancel kills the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)), but os/exec calls Cancel only while the direct child runs, and npx is a launcher shim", "run it with cancelpolicy.Run(ctx, cmd)"},

		{"windows", "Build", execcheck.Hang, "stdout is a *bytes.Buffer and nothing bounds Wait (no WaitDelay); " + defaultCancel + ": Wait lasts as long as any descendant holding the pipe", jobFix},
		{"windows", "Serve", execcheck.Orphan, defaultCancel + "; Wait returns in bounded time (WaitDelay = time.Second), but the descendants keep running", jobFix},
		{"windows", "Launch", execcheck.Orphan, defaultCancel + "; Wait returns in bounded time (WaitDelay = time.Second), but the descendants keep running", jobFix},

		{"plan9", "Build", execcheck.Hang, "stdout is a *bytes.Buffer and nothing bounds Wait (no WaitDelay): a descendant holding the pipe keeps Wait waiting after the cancel", "set cmd.WaitDelay: os/exec then stops waiting for the pipe that long after the cancel (cancelpolicy does not build for this system, and nothing reaches more than the direct child here)"},
		{"plan9", "Serve", execcheck.OK, noGroups + ", and Wait is bounded (WaitDelay = time.Second)", ""},
		{"plan9", "Launch", execcheck.OK, noGroups + ", and Wait is bounded (WaitDelay = time.Second)", ""},
	} {
		s, ok := sites[c.goos][c.fn]
		if !ok {
			t.Errorf("%s: no site in %s", c.goos, c.fn)
			continue
		}
		if s.Class != c.class || !strings.Contains(s.Reason, c.reason) || s.Fix != c.fix {
			t.Errorf("%s, %s: got %s (%s; fix: %q), want %s with %q (fix: %q)", c.goos, c.fn, s.Class, s.Reason, s.Fix, c.class, c.reason, c.fix)
		}
		if c.goos == "windows" {
			for _, u := range unixAdvice {
				if strings.Contains(s.Reason+s.Fix, u) {
					t.Errorf("%s, %s: got %q (fix: %q), want no %q: no process group there", c.goos, c.fn, s.Reason, s.Fix, u)
				}
			}
		}
	}
	for goos, ss := range sites {
		if len(ss) != 3 {
			t.Errorf("%s: got %d sites, want 3 (Build, Serve, Launch)", goos, len(ss))
		}
	}
}

// TestNoPolicyWithoutGroupsOrJobs: cancelpolicy does not build for Plan
// 9, js or wasip1, as the advice for those systems says (a WaitDelay, no
// rewrite to cancelpolicy.Run). Should it build there one day, the
// advice is to change with it.
func TestNoPolicyWithoutGroupsOrJobs(t *testing.T) {
	for _, target := range []string{"plan9/amd64", "js/wasm", "wasip1/wasm"} {
		goos, goarch, _ := strings.Cut(target, "/")
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedTypes,
			Dir:  analysistest.TestData(),
			Env:  append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOPROXY=off", "GOWORK=off"),
		}
		pkgs, err := packages.Load(cfg, "github.com/exectest/exectest/cancelpolicy")
		if err != nil {
			t.Fatal(err)
		}
		if len(pkgs) != 1 || len(pkgs[0].Errors) == 0 {
			t.Errorf("cancelpolicy for %s: got it built, want errors: the advice there says it does not build", target)
		}
	}
}

// TestSitesUnknown: what execcheck cannot follow is listed as unknown,
// never as ok, and is no diagnostic.
func TestSitesUnknown(t *testing.T) {
	sites := sitesOf(t, "linux", "example.com/t/sites")
	for fn, want := range map[string]struct {
		class  execcheck.Class
		reason string
	}{
		"FromInterface": {execcheck.Unknown, "the command comes from where execcheck cannot follow it"},
		"Passed":        {execcheck.Unknown, "the command is passed to run, which execcheck cannot follow"},
		"OpaqueCancel":  {execcheck.Unknown, "Cancel calls s.Stop, which execcheck cannot follow"},
		"Fine":          {execcheck.OK, "no cancel"},
		"Reflected":     {execcheck.Unknown, "the command's fields are set through reflect.ValueOf(cmd) at sites.go:"},
	} {
		s, ok := sites[fn]
		if !ok {
			t.Errorf("%s: no site", fn)
			continue
		}
		if s.Class != want.class || !strings.Contains(s.Reason, want.reason) {
			t.Errorf("%s: got %s (%s), want %s with %q", fn, s.Class, s.Reason, want.class, want.reason)
		}
	}
	analysistest.Run(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/sites") // no diagnostic
}

// TestSitesThroughMethodValues: a run through a method value (f :=
// cmd.Output; f()) or a method expression ((*exec.Cmd).Output(cmd)) is a
// site, named by the call as written and the method it calls.
func TestSitesThroughMethodValues(t *testing.T) {
	fixes := sitesOf(t, "linux", "example.com/t/fixes")
	ok := sitesOf(t, "linux", "example.com/t/ok")
	for _, c := range []struct {
		fn    string
		sites map[string]execcheck.Site
		class execcheck.Class
		call  string
	}{
		{"MethodValue", fixes, execcheck.Hang, "output() (cmd.Output)"},
		{"MethodValueRun", fixes, execcheck.Hang, "run() (cmd.Run)"},
		{"MethodExpression", fixes, execcheck.Hang, "(*exec.Cmd).Output(cmd) (cmd.Output)"},
		{"GroupKillMethodValue", ok, execcheck.OK, "run() (cmd.Run)"},
	} {
		s, found := c.sites[c.fn]
		if !found || s.Class != c.class || s.Call != c.call {
			t.Errorf("%s: got %v %q (found: %v), want %v %q", c.fn, s.Class, s.Call, found, c.class, c.call)
		}
	}
}
