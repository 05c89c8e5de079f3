package testenv_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

func TestMain(m *testing.M) {
	testenv.RunHelper(map[string]func([]string){
		"print-args": func(args []string) { fmt.Println(strings.Join(args, " ")) },
		"print-role": func([]string) { fmt.Printf("%q\n", os.Getenv("EXECTEST_HELPER_ROLE")) },
	})
	os.Exit(m.Run())
}

// A helper process plays its role with its arguments, and exits 0.
func TestHelperCommandPlaysTheRole(t *testing.T) {
	out, err := testenv.HelperCommand(t, "print-args", "a", "b c").Output()
	if err != nil || string(out) != "a b c\n" {
		t.Errorf("role print-args a \"b c\": got %q, %v, want \"a b c\\n\", nil", out, err)
	}
}

// The role's own children run as test binaries, not as the role again:
// the variable that named it is gone from its environment.
func TestHelperRoleIsNotInherited(t *testing.T) {
	out, err := testenv.HelperCommand(t, "print-role").Output()
	if err != nil || string(out) != "\"\"\n" {
		t.Errorf("the role's environment: got %q, %v, want no role in it", out, err)
	}
}

// A role the test binary lacks ends the helper with status 2, not with a
// run of the whole suite.
func TestRunHelperRefusesAnUnknownRole(t *testing.T) {
	cmd := testenv.HelperCommand(t, "no-such-role")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "no such role") {
		t.Errorf("an unknown role: got %v, stderr %q, want exit status 2 and \"no such role\"", err, stderr.String())
	}
}

func TestOnlyAsHelper(t *testing.T) {
	const env = "EXECTEST_TESTENV_TEST_HELPER"
	ran := false
	t.Run("unset", func(t *testing.T) {
		t.Setenv(env, "")
		testenv.OnlyAsHelper(t, env)
		ran = true
	})
	if ran {
		t.Errorf("OnlyAsHelper with %s unset: the test went on, want it skipped", env)
	}
	t.Setenv(env, "shape")
	if got := testenv.OnlyAsHelper(t, env); got != "shape" {
		t.Errorf("OnlyAsHelper with %s=shape: got %q", env, got)
	}
}

// What Start starts is dead once the test that started it has ended.
func TestStartReapsAtTheEnd(t *testing.T) {
	var id proc.Identity
	t.Run("starts", func(t *testing.T) {
		id = testenv.Start(t, exec.Command("/bin/sleep", "30"))
		if !id.Alive() {
			t.Fatalf("%v: dead right after Start, want it asleep", id)
		}
	})
	if id.PID != 0 && id.Alive() {
		t.Errorf("%v after the test that started it: alive, want it killed and reaped", id)
	}
}

func TestWithoutKillChild(t *testing.T) {
	prefix := []string{"unshare", "--user", "--pid", "--fork", "--kill-child"}
	if got, want := testenv.WithoutKillChild(prefix), []string{"unshare", "--user", "--pid", "--fork"}; !slices.Equal(got, want) {
		t.Errorf("WithoutKillChild(%q): got %q, want %q", prefix, got, want)
	}
	if len(prefix) != 5 {
		t.Errorf("WithoutKillChild changed its argument: %q", prefix)
	}
}
