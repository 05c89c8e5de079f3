package check_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// Without /proc where the test runs, the toolkit cannot identify anything:
// it skips with the reason, or fails under EXECTEST_STRICT=1. The test
// binary runs itself inside a sandbox whose /proc is empty.
func TestProcMissing(t *testing.T) {
	systemtest.NeedSight(t, "/proc (it reads none, so a missing one changes nothing)")
	if os.Getenv("EXECTEST_INNER_PROC_MISSING") == "1" {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, systemtest.Policy(d.Argv()))
		return
	}
	testenv.NeedBwrap(t)
	exe, _ := os.Executable()
	for strict, want := range map[string]string{"0": "--- SKIP", "1": "--- FAIL"} {
		argv := append(testenv.BwrapArgs(testenv.BwrapNoProc()), exe, "-test.run=^TestProcMissing$", "-test.v")
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "EXECTEST_INNER_PROC_MISSING=1", "EXECTEST_STRICT"+"="+strict)
		out, _ := cmd.CombinedOutput()
		s := string(out)
		if !strings.Contains(s, want) || !strings.Contains(s, "the toolkit needs /proc to identify processes") {
			t.Errorf("NewDescendant without /proc, %s=%s: got\n%s\nwant %s with the reason", "EXECTEST_STRICT", strict, s, want)
		}
	}
}
