package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A test binary can be started again as a helper process of a test, two
// ways. As a role (HelperCommand, RunHelper), it plays a part in TestMain
// instead of running its tests: it holds a file, starts processes, stands
// in for a program. As a helper test (OnlyAsHelper), it runs one test,
// which the other test selects with -test.run and a variable of its own,
// for what needs a test's machinery (fixtures, skips, the end report).

// helperRoleEnv names the role of a test binary started by HelperCommand.
const helperRoleEnv = "EXECTEST_HELPER_ROLE"

// HelperCommand returns a command that runs this test binary again as the
// helper process role, with args: its TestMain plays the role (see
// [RunHelper]) instead of running the tests.
func HelperCommand(t testing.TB, role string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), helperRoleEnv+"="+role)
	return cmd
}

// RunHelper, called first in TestMain, makes a test binary started as a
// helper process play its role instead of running the tests: the role
// that [HelperCommand] named or, started otherwise, the binary's own name
// (a copy or a bind mount named after the role, where no environment
// variable of the test's reaches). It calls roles[role] with the
// command's arguments and exits with status 0 when that returns; the
// role's own children do not inherit it. A role that roles lacks exits
// with status 2. In a test binary that go test started, it returns.
func RunHelper(roles map[string]func(args []string)) {
	role, named := os.LookupEnv(helperRoleEnv)
	if !named {
		role = filepath.Base(os.Args[0])
	}
	play, ok := roles[role]
	switch {
	case !ok && named:
		fmt.Fprintf(os.Stderr, "testenv: %s=%s: no such role in this test binary\n", helperRoleEnv, role)
		os.Exit(2)
	case !ok:
		return
	}
	os.Unsetenv(helperRoleEnv)
	play(os.Args[1:])
	os.Exit(0)
}

// OnlyAsHelper skips t unless the environment variable env is set: t is a
// helper test of another, which runs it in a test binary of its own with
// env set. It returns env's value.
func OnlyAsHelper(t testing.TB, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		t.Skipf("a helper of another test, which runs it in a test binary of its own with %s set", env)
	}
	return v
}

// HelperRole is the role HelperCommand gave this test binary, "" if none:
// for an init that must act before TestMain (runtime.LockOSThread).
func HelperRole() string { return os.Getenv(helperRoleEnv) }
