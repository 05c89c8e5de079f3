package deps_test

import (
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

// isXTools reports whether path, a package's or a module's, is in
// golang.org/x/tools or one of its modules (gopls, ...).
func isXTools(path string) bool {
	return path == xtools || strings.HasPrefix(path, xtools+"/")
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
