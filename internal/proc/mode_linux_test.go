package proc_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// reportModeEnv makes TestReportMode print the mode this test binary
// chose, for TestPortableSwitchValues, which starts it with a value.
const reportModeEnv = "EXECTEST_HELPER_REPORT_MODE"

func TestReportMode(t *testing.T) {
	testenv.OnlyAsHelper(t, reportModeEnv)
	fmt.Printf("mode: %s\n", proc.Mode())
}

// EXECTEST_PORTABLE takes what strconv.ParseBool takes. Before, only 1
// chose the portable mode: "true" gave the Linux mode, silently. A bad
// value fails the test binary (its TestMain is exectest.VerifyTestMain)
// before any test runs.
func TestPortableSwitchValues(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]string{"1": "mode: portable", "true": "mode: portable", "T": "mode: portable", "0": "mode: linux", "false": "mode: linux", "": "mode: linux",
		"yes": `exectest: EXECTEST_PORTABLE: got "yes", want one of 1, t, T, true`} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestReportMode$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), reportModeEnv+"=1", proc.PortableEnv+"="+value)
		out, err := cmd.CombinedOutput()
		if bad := value == "yes"; bad != (err != nil) {
			t.Errorf("%s=%q: the test binary: got %v, want failed %v\n%s", proc.PortableEnv, value, err, bad, out)
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%s=%q: got\n%s\nwant %s", proc.PortableEnv, value, out, want)
		}
	}
}
