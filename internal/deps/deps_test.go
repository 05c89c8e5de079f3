package deps_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
)

// userTest starts a user's test file: it needs exectest, and nothing
// else, in its module's build list.
const userTest = `package user

import (
	"testing"

	"github.com/exectest/exectest"
)

func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
`

const (
	toolkit = "github.com/exectest/exectest"
	xtools  = "golang.org/x/tools"
)

// TestDepsOfTheToolkit: the packages users import into tests and
// production code (the root, proctest, fixtures, cancelpolicy) link no
// golang.org/x/tools, here and for the systems users build for.
func TestDepsOfTheToolkit(t *testing.T) {
	gobin := goCommand(t)
	root := checkoutRoot(t)
	pkgs := []string{toolkit, toolkit + "/proctest", toolkit + "/fixtures", toolkit + "/cancelpolicy"}
	for _, goos := range []string{runtime.GOOS, "darwin", "windows"} {
		for _, pkg := range pkgs {
			// GOWORK=off: the toolkit's module alone, as a user gets it,
			// not the workspace of the checkout, which holds execcheck.
			out := goIn(t, gobin, root, []string{"GOOS=" + goos, "CGO_ENABLED=0", "GOWORK=off"}, "list", "-deps", pkg)
			deps := strings.Fields(out)
			// The listing ends with the package itself: it is no
			// empty answer passing for no x/tools.
			if len(deps) == 0 || deps[len(deps)-1] != pkg {
				t.Errorf("GOOS=%s go list -deps %s: got %q, want the package's dependencies, then itself", goos, pkg, out)
				continue
			}
			var bad []string
			for _, d := range deps {
				if isXTools(d) {
					bad = append(bad, d)
				}
			}
			if len(bad) > 0 {
				t.Errorf("GOOS=%s go list -deps %s: got %s, want no %s package", goos, pkg, strings.Join(bad, ", "), xtools)
			}
		}
	}
}

// TestGoModRequiresNoXTools: the toolkit's go.mod names no
// golang.org/x/tools module, not even indirect: a requirement there is
// one of every module that requires exectest, and raises its x/tools by
// minimal version selection. Read as text: the toolkit's module must not
// need golang.org/x/mod either.
func TestGoModRequiresNoXTools(t *testing.T) {
	mod := filepath.Join(checkoutRoot(t), "go.mod")
	b, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	if bad := xtoolsLines(b); len(bad) > 0 {
		t.Errorf("%s: got %s\nwant no %s module: it belongs to execcheck's module (execcheck/go.mod)", mod, strings.Join(bad, "\n"), xtools)
	}
}

// TestXToolsLines keeps TestGoModRequiresNoXTools from passing for want
// of reading go.mod's forms: a block, a single line, a comment.
func TestXToolsLines(t *testing.T) {
	for _, c := range []struct {
		mod  string
		want int
	}{
		{"module m\n\nrequire (\n\tgolang.org/x/sys v0.50.0\n\tgolang.org/x/tools v0.52.0 // indirect\n)\n", 1},
		{"module m\nrequire golang.org/x/tools v0.52.0\n", 1},
		{"module m\nrequire golang.org/x/tools/gopls v0.20.0\ntool golang.org/x/tools/cmd/stringer\n", 2},
		{"module m\nreplace golang.org/x/tools => ../tools\n", 1},
		{"module m\n// golang.org/x/tools: see execcheck/go.mod\nrequire golang.org/x/toolsmith v1.0.0\n", 0},
		{"module m\nrequire (\n\tgo.uber.org/goleak v1.3.0\n)\n", 0},
	} {
		if got := xtoolsLines([]byte(c.mod)); len(got) != c.want {
			t.Errorf("xtoolsLines(%q): got %q, want %d lines", c.mod, got, c.want)
		}
	}
}

// TestUsersModuleGetsNoXTools is the case: a module that requires
// exectest for its tests alone (a _test.go file imports it; exectest
// through a replace to this checkout), tidied, has no golang.org/x/tools
// in its build list, so its own x/tools, if any, stays where it pinned it.
func TestUsersModuleGetsNoXTools(t *testing.T) {
	gobin := goCommand(t)
	root := checkoutRoot(t)
	dir := t.TempDir()
	files := map[string]string{
		"user.go": "package user\n\n// Hello is the module's code, which needs nothing.\nfunc Hello() string { return \"hello\" }\n",
		"user_test.go": userTest + `
func TestHello(t *testing.T) {
	if Hello() != "hello" {
		t.Fail()
	}
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Without a go.sum, go mod tidy asks the checksum database about each
	// dependency, which an offline machine cannot reach (CI's unprivileged
	// step runs with GOPROXY=off). The checkout's go.sum holds the same
	// modules at the same versions, verified when they were added.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	// GOWORK=off: a go.work above the temporary folder, or named by the
	// environment, would put other modules into the build list.
	env := []string{"GOWORK=off", "GOFLAGS=" + goflags()}
	goIn(t, gobin, dir, env, "mod", "init", "example.test/user")
	goIn(t, gobin, dir, env, "mod", "edit",
		"-require="+toolkit+"@v0.0.0-00010101000000-000000000000",
		"-replace="+toolkit+"="+root)
	// -e: tidy also wants what no build here needs, which an offline
	// module cache filled by builds lacks (the modules of other systems'
	// files, of the dependencies' own tests). The build list below reads
	// the toolkit's go.mod all the same, and go list fails on a module
	// it cannot read.
	goIn(t, gobin, dir, env, "mod", "tidy", "-e")
	out := goIn(t, gobin, dir, env, "list", "-m", "all")
	mods := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(out, "example.test/user\n") || !strings.Contains(out, "\n"+toolkit+" v0.0.0-00010101000000-000000000000 => "+root+"\n") {
		t.Fatalf("go list -m all: got\n%s\nwant example.test/user, then exectest replaced by %s among the rest", out, root)
	}
	var bad []string
	for _, m := range mods {
		if isXTools(strings.Fields(m)[0]) {
			bad = append(bad, m)
		}
	}
	if len(bad) > 0 {
		t.Errorf("go list -m all in a module that requires exectest for its tests: got %s, want no %s: the user's x/tools would be raised to it", strings.Join(bad, ", "), xtools)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil || bytes.Contains(b, []byte(xtools)) {
		t.Errorf("the user's go.mod after go mod tidy: got %v and\n%s\nwant no %s", err, b, xtools)
	}
}

// TestWorkspaceKeepsTheToolkitsVersions: the checkout's go.work puts
// execcheck's module beside the toolkit's, and minimal version selection
// then runs over both: were execcheck's requirements (x/tools and its
// own) to raise a module the toolkit needs, the toolkit's tests here and
// in CI would run against a version its users do not get. Every module of
// the toolkit's build list must be selected at the same version in the
// workspace as in the toolkit alone.
func TestWorkspaceKeepsTheToolkitsVersions(t *testing.T) {
	gobin := goCommand(t)
	root := checkoutRoot(t)
	work := filepath.Join(root, "go.work")
	if _, err := os.Stat(work); err != nil {
		t.Skipf("no workspace to compare with: %v", err)
	}
	const format = "{{.Path}} {{.Version}}"
	alone := modules(goIn(t, gobin, root, []string{"GOWORK=off"}, "list", "-m", "-f", format, "all"))
	workspace := modules(goIn(t, gobin, root, []string{"GOWORK=" + work}, "list", "-m", "-f", format, "all"))
	if len(alone) < 2 || alone[toolkit] != "" {
		t.Fatalf("GOWORK=off go list -m all: got %v, want the toolkit (no version: the main module) and its dependencies", alone)
	}
	for path, v := range alone {
		if w, ok := workspace[path]; !ok || w != v {
			t.Errorf("%s: got %q in the workspace (go.work), %q in the toolkit alone: its tests here run against a version its users do not get; lower execcheck/go.mod's requirement or raise the toolkit's", path, w, v)
		}
	}
}

// modules reads go list -m's lines of path and version into a map.
func modules(out string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		path, version, _ := strings.Cut(line, " ")
		m[path] = version
	}
	return m
}

// isXTools reports whether path, a package's or a module's, is in
// golang.org/x/tools or one of its modules (gopls, ...).
func isXTools(path string) bool {
	return path == xtools || strings.HasPrefix(path, xtools+"/")
}

// xtoolsLines returns go.mod's lines, numbered, that name a module in
// golang.org/x/tools (require, tool, replace, exclude: a block or a
// single line), comments aside.
func xtoolsLines(mod []byte) []string {
	var bad []string
	s := bufio.NewScanner(bytes.NewReader(mod))
	for n := 1; s.Scan(); n++ {
		line, _, _ := strings.Cut(s.Text(), "//")
		for _, f := range strings.Fields(line) {
			if isXTools(f) {
				bad = append(bad, fmt.Sprintf("%d: %s", n, strings.TrimSpace(s.Text())))
				break
			}
		}
	}
	return bad
}

// checkoutRoot is the folder of the toolkit's go.mod, two above this one.
func checkoutRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatalf("the checkout's go.mod: got %v, want it readable", err)
	}
	if first, _, _ := bytes.Cut(mod, []byte("\n")); string(bytes.TrimSpace(first)) != "module "+toolkit {
		t.Fatalf("%s/go.mod: got %q, want module %s", root, first, toolkit)
	}
	return root
}

// goCommand is the go command that runs the test (go test puts its own
// GOROOT/bin first on PATH), or a missing prerequisite.
func goCommand(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("go")
	if err != nil {
		envswitch.Unmet(t, "go command: got %v, want one on PATH to list the toolkit's dependencies", err)
	}
	return path
}

// goIn runs the go command in dir with env added and returns its
// standard output. A failure for want of a module (not in the module
// cache, and GOPROXY=off or no network) is a missing prerequisite; any
// other fails the test.
func goIn(t *testing.T, gobin, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		return string(out)
	}
	var ee *exec.ExitError
	what := fmt.Sprintf("%s go %s in %s", strings.Join(env, " "), strings.Join(args, " "), dir)
	switch s := stderr.String(); {
	case !errors.As(err, &ee):
		t.Fatalf("%s: got %v, want it run", what, err)
	case strings.Contains(s, "GOPROXY=off") || strings.Contains(s, "dial tcp") || strings.Contains(s, "no such host"):
		envswitch.Unmet(t, "%s: got %v\n%s\nwant every module it needs in the module cache, or a network", what, err, s)
	default:
		t.Fatalf("%s: got %v\n%s\nwant success", what, err, s)
	}
	return ""
}

// goflags is GOFLAGS with -mod=mod in place of any -mod: the user's
// go.mod starts with exectest alone, and the go command must add the
// rest, which -mod=readonly (as CI's unprivileged step sets) refuses.
func goflags() string {
	var flags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if !strings.HasPrefix(strings.TrimLeft(f, "-"), "mod=") {
			flags = append(flags, f)
		}
	}
	return strings.Join(append(flags, "-mod=mod"), " ")
}
