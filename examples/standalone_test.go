package examples_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Users copy an example's folder into a module of their own, where Go
// refuses any import of exectest's internal packages. So each example is
// copied into a new module that requires this checkout through a replace,
// and must build there, tests included (go vet builds them). Its imports
// of the other examples stay: those are public packages of exectest, as
// importable from the user's module as from this one, and the copied files
// are compiled as the new module's, so an internal import in any of them
// is refused.
func TestExamplesBuildInAnotherModule(t *testing.T) {
	root := checkoutRoot(t)
	gobin := goCommand(t)
	// Without a go.sum, go mod tidy asks the checksum database about each
	// dependency, which an offline machine cannot reach (CI's unprivileged
	// step runs with GOPROXY=off). The checkout's go.sum holds the same
	// modules at the same versions, verified when they were added.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatalf("the checkout's go.sum: got %v, want it readable", err)
	}
	for _, name := range exampleDirs(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(name)); err != nil {
				t.Fatalf("copy of %s: got %v, want its files in %s", name, err, dir)
			}
			goIn(t, gobin, dir, name, "mod", "init", "example.test/"+name)
			if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
				t.Fatalf("go.sum of the copy: got %v, want it written", err)
			}
			goIn(t, gobin, dir, name, "mod", "edit",
				"-require=github.com/exectest/exectest@v0.0.0-00010101000000-000000000000",
				"-replace=github.com/exectest/exectest="+root)
			// -e: tidy also wants what no build here needs, which an
			// offline module cache filled by builds lacks: the modules of
			// other systems' files (gopsutil's plan9stats) and of the
			// dependencies' own tests (goleak's testify). go vet then
			// fails on anything the build does need.
			goIn(t, gobin, dir, name, "mod", "tidy", "-e")
			goIn(t, gobin, dir, name, "vet", "./...")
		})
	}
}

// checkoutRoot is the folder of exectest's go.mod, the one above examples.
func checkoutRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatalf("the checkout's folder: got %v, want the parent of examples", err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatalf("the checkout's go.mod: got %v, want it readable", err)
	}
	if first, _, _ := bytes.Cut(mod, []byte("\n")); string(bytes.TrimSpace(first)) != "module github.com/exectest/exectest" {
		t.Fatalf("%s/go.mod: got %q, want module github.com/exectest/exectest", root, first)
	}
	return root
}

// exampleDirs lists the folders here that hold Go files: the examples.
// Found rather than listed, so that a new example is checked too.
func exampleDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatalf("examples: got %v, want its folders listed", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") || e.Name() == "testdata" {
			continue
		}
		if files, _ := filepath.Glob(filepath.Join(e.Name(), "*.go")); len(files) > 0 {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("examples: got no folder with Go files, want the examples")
	}
	return names
}

// goCommand is the go command to build the copies with. go test puts its
// own GOROOT/bin first on PATH, so this is the go that runs the test.
func goCommand(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("go")
	if err != nil {
		unmet(t, "go command: got %v, want one on PATH to build the examples' copies", err)
	}
	return path
}

// goIn runs the go command in dir, the copy of example name. A failure
// for want of a module (not in the module cache, and GOPROXY=off or no
// network) is a missing prerequisite; any other fails the test, an
// internal import saying so.
func goIn(t *testing.T, gobin, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	// GOWORK=off: a go.work above the temporary folder, or named by the
	// environment, would put other modules into the copy's build.
	cmd.Env = append(os.Environ(), "GOFLAGS="+goflags(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	what := fmt.Sprintf("go %s in a copy of examples/%s", strings.Join(args, " "), name)
	switch s := string(out); {
	case strings.Contains(s, "use of internal package"):
		t.Fatalf("%s: got %v\n%s\nwant it to build: an example may import exectest's public packages only", what, err, out)
	case strings.Contains(s, "GOPROXY=off") || strings.Contains(s, "dial tcp") || strings.Contains(s, "no such host"):
		unmet(t, "%s: got %v\n%s\nwant every module it needs in the module cache, or a network", what, err, out)
	default:
		t.Fatalf("%s: got %v\n%s\nwant success", what, err, out)
	}
}

// goflags is GOFLAGS with -mod=mod in place of any -mod: the copy's
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

// strictEnv is exectest's switch for CI: on, a missing prerequisite
// fails a test instead of skipping it.
const strictEnv = "EXECTEST_STRICT"

// unmet skips t for a missing prerequisite, saying which, or fails it
// when strictEnv is on or has a value strconv.ParseBool rejects: a typo
// must not pass for off, or CI would skip unseen what it set it to catch.
func unmet(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if v := os.Getenv(strictEnv); v != "" {
		on, err := strconv.ParseBool(v)
		switch {
		case err != nil:
			t.Fatalf("%s\n(failing instead of skipping: %s: got %q, want what strconv.ParseBool accepts (1 or true: on; 0 or false: off) or unset (off))", msg, strictEnv, v)
		case on:
			t.Fatalf("%s\n(failing instead of skipping: %s is on)", msg, strictEnv)
		}
	}
	t.Skipf("%s\n(set %s=1 to make this a failure)", msg, strictEnv)
}
