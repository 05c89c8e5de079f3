package exectest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/testenv"
)

type runFunc func() int

func (f runFunc) Run() int { return f() }

// BenchmarkWindowsLeak is what the leaked process of
// TestVerifyTestMainProcessesOnWindows runs: it sleeps, as long as its
// -test.benchtime asks.
func BenchmarkWindowsLeak(b *testing.B) {
	for b.Loop() {
		time.Sleep(10 * time.Millisecond)
	}
}

// On Windows (run under Wine), a process left running fails a passing
// run, is named and killed; without it the run passes.
func TestVerifyTestMainProcessesOnWindows(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, leak := range map[string]bool{"leak": true, "clean": false} {
		t.Run(name, func(t *testing.T) {
			var cmd *exec.Cmd
			var report strings.Builder
			listed, seen := "", true
			code := verifyTestMain(runFunc(func() int {
				if leak {
					//execcheck:ignore BenchmarkWindowsLeak sleeps and starts no process: nothing outlives the kill
					cmd = exec.Command(exe, "-test.run=^$", "-test.bench=^BenchmarkWindowsLeak$", "-test.benchtime=30s")
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					listed, seen = testenv.AwaitListed(cmd.Process.Pid, "BenchmarkWindowsLeak", 10*time.Second)
				}
				return 0
			}), &report)
			if !seen {
				cmd.Process.Kill()
				cmd.Wait()
				t.Skipf("leaked pid %d: not listed with its command line within 10s (last seen: %s): the premise does not hold on this machine", cmd.Process.Pid, listed)
			}
			if !leak {
				if code != 0 {
					t.Errorf("a clean passing run: got exit code %d, want 0; report:\n%s", code, report.String())
				}
				return
			}
			cmd.Wait() // killed by the check, or the test hangs to its timeout
			if code != 1 {
				t.Errorf("a passing run that leaves a process: got exit code %d, want 1; report:\n%s", code, report.String())
			}
			for _, want := range []string{"proctest: unexpected processes below the test process: got 1, want 0", "BenchmarkWindowsLeak", "(killed now)"} {
				if !strings.Contains(report.String(), want) {
					t.Errorf("report: got\n%s\nwant it to say %q", report.String(), want)
				}
			}
			if cmd.ProcessState.Success() {
				t.Errorf("the leaked process: got %v, want killed by the check", cmd.ProcessState)
			}
		})
	}
}
