package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// downstreamTest is a test of another module, in the form the README
// teaches: the quick start's check of a runner that uses cancelpolicy.
const downstreamTest = `package downstream

import (
	"context"
	"os/exec"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
)

func TestRunnerCancel(t *testing.T) {
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		argv := d.Argv()
		return cancelpolicy.Run(ctx, exec.Command(argv[0], argv[1:]...))
	})
}
`

// Users run flakehunt on their own module: go install
// github.com/exectest/exectest/cmd/flakehunt@latest, or go run of that
// path@latest. No @version can be tried here: it ignores replace
// directives and needs the module proxy, while this test must run offline
// against this checkout. So it makes a module that requires exectest,
// replaced by this checkout, and runs go run and go install of the
// package path without a version, as a module that requires exectest
// does. It resolves offline, as CI's unprivileged step must (GOPROXY=off,
// -mod=readonly): the module cache and this repository's go.sum.
func TestFromAnotherModule(t *testing.T) {
	root := moduleRoot(t)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// The go line must be exectest's own ("go 1.26.0"): a lower or less
	// precise one ("go 1.26") needs go.mod updated, which -mod=readonly
	// refuses. The requirements are exectest's, as go mod tidy lists them
	// for a module whose tests import it.
	goLine := regexp.MustCompile(`(?m)^go .*$`).Find(mod)
	requires := mod[bytes.Index(mod, []byte("\nrequire")):]
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/downstream\n\n" + string(goLine) + "\n\n" +
			"require github.com/exectest/exectest v0.0.0\n\n" +
			"replace github.com/exectest/exectest => " + strconv.Quote(root) + "\n" + string(requires),
		"go.sum":       string(sum),
		"hunt_test.go": downstreamTest,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := t.TempDir()
	env := append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local", "GOBIN="+bin)

	out := runIn(t, dir, env, "go", "run", "github.com/exectest/exectest/cmd/flakehunt", "-count", "2", "-load", "1", "./...")
	if !regexp.MustCompile(`(?m)^example\.com/downstream\s+TestRunnerCancel\s+2\s+2\s+0\s+0\s`).MatchString(out) ||
		!strings.HasSuffix(out, "\n2 passed, 0 failed, 0 skipped\n") {
		t.Errorf("go run: got\n%s\nwant TestRunnerCancel's row with 2 runs, 2 passes, and \"2 passed, 0 failed, 0 skipped\" last", out)
	}

	runIn(t, dir, env, "go", "install", "github.com/exectest/exectest/cmd/flakehunt")
	out = runIn(t, dir, env, filepath.Join(bin, "flakehunt"), "-count", "1", "-load", "0", "-json", "./...")
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Passed != 1 || rep.Failed != 0 || rep.Skipped != 0 {
		t.Errorf("installed flakehunt: got %+v (%v) from\n%s\nwant 1 passed, 0 failed, 0 skipped", rep, err, out)
	}
}

// runIn runs argv in dir and returns its stdout; it fails the test unless
// the command exits 0.
func runIn(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// go run leaves flakehunt, its burners and go test below it: a
	// timeout stops all of them.
	if err := cancelpolicy.Run(ctx, cmd); err != nil {
		t.Fatalf("%s in %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(argv, " "), dir, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// moduleRoot is the root of this checkout: the folder with exectest's
// go.mod, above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if !bytes.HasPrefix(b, []byte("module github.com/exectest/exectest\n")) {
				t.Fatalf("%s/go.mod: got %q, want module github.com/exectest/exectest", dir, bytes.SplitN(b, []byte("\n"), 2)[0])
			}
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above %s", dir)
		}
		dir = parent
	}
}
