package execcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// TestWindowsOnly: a file builds only for windows by its name or by its
// build constraint, as go/build decides; one that may build elsewhere too
// keeps the build's platform.
func TestWindowsOnly(t *testing.T) {
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"run_windows.go", "", true},
		{"run_windows_test.go", "", true},
		{"run_windows_arm64.go", "", true},
		{"windows.go", "", false}, // no _: not a GOOS suffix
		{"run_linux.go", "", false},
		{"run_windows_extra.go", "", false},
		{"run.go", "//go:build windows\n\n", true},
		{"run.go", "// Copyright 2026.\n\n//go:build windows && (amd64 || arm64)\n\n", true},
		{"run.go", "//go:build windows && !cgo\n\n", true},
		{"run.go", "// +build windows\n\n", true},
		{"run.go", "//go:build windows || plan9\n\n", false},
		{"run.go", "//go:build !unix\n\n", false},
		{"run.go", "//go:build !linux\n\n", false},
		{"run.go", "//go:build unix\n\n", false},
		{"run.go", "", false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, c.name, c.head+"package p\n\n//go:build windows\n", parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if got := windowsOnly(fset, f); got != c.want {
			t.Errorf("%s with %q: got windows only %v, want %v", c.name, c.head, got, c.want)
		}
	}
}

// TestForJobs: a SuggestedFix that inserts Setpgid or a group kill is not
// offered for Windows, where it would not build; cancelpolicy.Run is.
func TestForJobs(t *testing.T) {
	fix := func(text string) *analysis.SuggestedFix {
		return &analysis.SuggestedFix{TextEdits: []analysis.TextEdit{{NewText: []byte(text)}}}
	}
	for text, kept := range map[string]bool{
		"cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}":             false,
		"syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)":                   false,
		"unix.Kill(-pgid, unix.SIGTERM)":                                    false,
		"cancelpolicy.Run(ctx, cmd)":                                        true,
		"var out bytes.Buffer\ncmd.Stdout = &out\ncancelpolicy.Run(ctx, c)": true,
	} {
		if got := forJobs(fix(text)) != nil; got != kept {
			t.Errorf("%q: got offered %v, want %v", text, got, kept)
		}
	}
}

// TestFilePlatformInAUnixBuild runs the analyzer on package jobs's
// Windows files type-checked for the host (Unix: syscall.SysProcAttr has
// Setpgid there): the file, not the build, decides, and the advice is the
// job object's as in a windows build.
func TestFilePlatformInAUnixBuild(t *testing.T) {
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  analysistest.TestData(),
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "example.com/t/jobsplain") // the same imports
	if err != nil || len(pkgs) != 1 || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading jobsplain: %v", err)
	}
	fset := pkgs[0].Fset
	var files []*ast.File
	for _, name := range []string{"doc.go", "jobs_windows.go", "tagged.go"} {
		f, err := parser.ParseFile(fset, filepath.Join(analysistest.TestData(), "jobs", name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
	}
	imp := importerFunc(func(path string) (*types.Package, error) { return pkgs[0].Imports[path].Types, nil })
	pkg, err := (&types.Config{Importer: imp}).Check("example.com/t/jobs", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	if pl := buildPlatform(pkgs[0].Imports["os/exec"].Types); pl != platGroups {
		t.Fatalf("the host's build: got platform %d, want process groups", pl)
	}
	var diags []analysis.Diagnostic
	pass := &analysis.Pass{
		Analyzer: Analyzer, Fset: fset, Files: files, Pkg: pkg, TypesInfo: info,
		ReadFile:         os.ReadFile,
		Report:           func(d analysis.Diagnostic) { diags = append(diags, d) },
		ImportObjectFact: func(types.Object, analysis.Fact) bool { return false },
		ExportObjectFact: func(types.Object, analysis.Fact) {},
	}
	res, err := Analyzer.Run(pass)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 12 {
		t.Errorf("got %d diagnostics, want 12, as for windows", len(diags))
	}
	for _, d := range diags {
		if !strings.HasSuffix(d.Message, jobAdvice) || strings.Contains(d.Message, "group") {
			t.Errorf("%s: got %q, want the job object advice and no group", fset.Position(d.Pos), d.Message)
		}
		for _, f := range d.SuggestedFixes {
			if forJobs(&f) == nil {
				t.Errorf("%s: got a fix that does not build on Windows", fset.Position(d.Pos))
			}
		}
	}
	for _, s := range res.(*Result).Sites {
		if strings.HasPrefix(s.Call, "cancelpolicy.Run") && !strings.Contains(s.Reason, "job object") {
			t.Errorf("%s: got %q, want the job object", s.Posn, s.Reason)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
