package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runMainEnv makes this test binary run the matrix's main instead of its
// tests, before the testing package registers its flags, so that a test
// sees the program's own flag handling.
const runMainEnv = "MATRIX_TEST_RUN_MAIN"

func init() {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
}

// runMain runs the matrix's main with args and returns its stdout,
// stderr and exit code.
func runMain(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("run %s %q: %v", os.Args[0], args, err)
	}
	return out.String(), errb.String(), code
}

// The usage names the command as the user runs it, not the binary that go
// run built in its cache.
func TestUsageNamesTheCommand(t *testing.T) {
	_, stderr, code := runMain(t, "-h")
	if code != 0 || !strings.HasPrefix(stderr, "usage: go run ./examples/matrix [-format ") || strings.Contains(stderr, os.Args[0]) {
		t.Errorf("-h: got exit %d, stderr:\n%s\nwant exit 0 and a usage starting \"usage: go run ./examples/matrix [-format \", without the binary's path %s", code, stderr, os.Args[0])
	}
	for _, flag := range []string{"-format", "-runs", "-bound", "-lifetime"} {
		if !strings.Contains(stderr, "  "+flag+" ") {
			t.Errorf("-h: no line for %s in\n%s", flag, stderr)
		}
	}
	_, stderr, code = runMain(t, "-nosuchflag")
	if code != 2 || !strings.HasPrefix(stderr, "flag provided but not defined: -nosuchflag\nusage: go run ./examples/matrix ") {
		t.Errorf("-nosuchflag: got exit %d, stderr:\n%s\nwant exit 2, the error and the usage", code, stderr)
	}
}
