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
// file with a no-op _windows.go twin, once per build. On Linux the
// helper's group kill and WaitDelay make both sites ok. On Windows no
// group can be killed: only Build, whose Wait nothing bounds there, is a
// finding (hang: cancelpolicy.Run sets the WaitDelay), and Serve, which
// bounds its own Wait, is ok with the reason that says so.
func TestPerOS(t *testing.T) {
	linux := sitesOf(t, "linux", "example.com/t/peros")
	windows := sitesOf(t, "windows", "example.com/t/peros")
	for _, c := range []struct {
		goos, fn string
		sites    map[string]execcheck.Site
		class    execcheck.Class
		reason   string
	}{
		{"linux", "Build", linux, execcheck.OK, "Cancel kills the group (syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)) and Wait is bounded (WaitDelay = 2 * time.Second (in harden)); go is not a known launcher"},
		{"linux", "Serve", linux, execcheck.OK, "Wait is bounded (WaitDelay = 2 * time.Second (in harden))"},
		{"windows", "Build", windows, execcheck.Hang, "stdout is a *bytes.Buffer and nothing bounds Wait (no WaitDelay)"},
		{"windows", "Serve", windows, execcheck.OK, "no process groups on this system: a cancel reaches the direct child only, and Wait is bounded (WaitDelay = time.Second)"},
	} {
		s, ok := c.sites[c.fn]
		if !ok {
			t.Errorf("%s: no site in %s", c.goos, c.fn)
			continue
		}
		if s.Class != c.class || !strings.Contains(s.Reason, c.reason) {
			t.Errorf("%s, %s: got %s (%s), want %s with %q", c.goos, c.fn, s.Class, s.Reason, c.class, c.reason)
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
