//go:build unix

package exectest

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/proctest"
)

// These run a whole "test binary" in the test process, and look at every
// goroutine and process below it: not parallel.

type runFunc func() int

func (f runFunc) Run() int { return f() }

// leakUntil is a goroutine that always leaks, until release is closed: the
// top of its stack is this function, as IgnoreTopFunction names it.
func leakUntil(release chan struct{}) { <-release }

const leakUntilName = "github.com/exectest/exectest.leakUntil"

func TestVerifyTestMain(t *testing.T) {
	var report strings.Builder
	if code := verifyTestMain(runFunc(func() int { return 0 }), &report); code != 0 {
		t.Errorf("a clean passing run: got exit code %d, want 0; report:\n%s", code, report.String())
	}
	if code := verifyTestMain(runFunc(func() int { return 3 }), &report); code != 3 {
		t.Errorf("a failing run: got exit code %d, want its own 3", code)
	}
	release := make(chan struct{})
	defer close(release)
	report.Reset()
	code := verifyTestMain(runFunc(func() int {
		go leakUntil(release)
		return 0
	}), &report)
	if code != 1 {
		t.Errorf("a passing run that leaks a goroutine: got exit code %d, want 1", code)
	}
	if want := "exectest: goroutines left running after a passing run: got 1, want 0 (found by goleak)"; !strings.Contains(report.String(), want) {
		t.Errorf("report of a passing run that leaks a goroutine: got\n%s\nwant it to say %q", report.String(), want)
	}
}

// The goroutine options are goleak's: a goroutine named by either is no
// leak; one they do not name still is.
func TestVerifyTestMainIgnoresGoroutines(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	for name, c := range map[string]struct {
		opt      MainOption
		wantCode int
	}{
		"top function":                 {IgnoreTopFunction(leakUntilName), 0},
		"any function":                 {IgnoreAnyFunction(leakUntilName), 0},
		"another top function":         {IgnoreTopFunction("example.com/other.Func"), 1},
		"any function, another one":    {IgnoreAnyFunction("example.com/other.Func"), 1},
		"process option, no goroutine": {IgnoreProcess(func(proctest.Process) bool { return true }), 1},
	} {
		t.Run(name, func(t *testing.T) {
			var report strings.Builder
			code := verifyTestMain(runFunc(func() int {
				go leakUntil(release)
				return 0
			}), &report, c.opt)
			if code != c.wantCode {
				t.Errorf("a passing run that leaks %s: got exit code %d, want %d; report:\n%s", leakUntilName, code, c.wantCode, report.String())
			}
		})
	}
}

// A process left running fails a passing run, is killed, and is reported
// once; IgnoreProcess accepts it.
func TestVerifyTestMainProcesses(t *testing.T) {
	for name, c := range map[string]struct {
		opts     []MainOption
		wantCode int
	}{
		"reported": {nil, 1},
		"ignored": {[]MainOption{IgnoreProcess(func(p proctest.Process) bool {
			return p.Cmdline == "/bin/sleep 37"
		})}, 0},
	} {
		t.Run(name, func(t *testing.T) {
			var cmd *exec.Cmd
			var report strings.Builder
			code := verifyTestMain(runFunc(func() int {
				cmd = exec.Command("/bin/sleep", "37")
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				return 0
			}), &report, c.opts...)
			if c.wantCode == 0 {
				cmd.Process.Kill()
			}
			cmd.Wait()
			if code != c.wantCode {
				t.Fatalf("a passing run that leaves /bin/sleep 37: got exit code %d, want %d; report:\n%s", code, c.wantCode, report.String())
			}
			if c.wantCode == 0 {
				return
			}
			for _, want := range []string{"proctest: unexpected processes below the test process: got 1, want 0", "/bin/sleep 37", "(killed now)"} {
				if !strings.Contains(report.String(), want) {
					t.Errorf("report: got\n%s\nwant it to say %q", report.String(), want)
				}
			}
			if cmd.ProcessState.Success() {
				t.Errorf("/bin/sleep 37: got %v, want killed by the check", cmd.ProcessState)
			}
		})
	}
}

// A failing run's processes are killed and listed too, and the run fails
// with its own code, not the check's.
func TestVerifyTestMainFailingRunKillsItsProcesses(t *testing.T) {
	var cmd *exec.Cmd
	var report strings.Builder
	code := verifyTestMain(runFunc(func() int {
		cmd = exec.Command("/bin/sleep", "303")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return 3
	}), &report)
	defer cmd.Wait()
	defer cmd.Process.Kill() // if the check did not
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if code != 3 {
		t.Errorf("a failing run that leaves /bin/sleep 303: got exit code %d, want its own 3; report:\n%s", code, report.String())
	}
	for _, want := range []string{"proctest: unexpected processes below the test process: got 1, want 0", fmt.Sprintf("pid %d", cmd.Process.Pid), "/bin/sleep 303", "(killed now)", "(after a failing run: its failure stands)"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report of a failing run: got\n%s\nwant it to say %q", report.String(), want)
		}
	}
	if !testenv.AwaitDead(id, time.Second) {
		t.Errorf("/bin/sleep 303 after a failing run: got alive, want killed by the check")
	}
}

// Cleanup runs after the checks, with the code the binary exits with, as
// goleak's does; each one given runs, in order.
func TestVerifyTestMainCleanup(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var report strings.Builder
	var got []string
	cleanup := func(name string) MainOption {
		return Cleanup(func(code int) {
			got = append(got, fmt.Sprintf("%s(%d) after a report of %d bytes", name, code, report.Len()))
		})
	}
	code := verifyTestMain(runFunc(func() int {
		go leakUntil(release)
		return 0
	}), &report, cleanup("first"), cleanup("second"))
	n := report.Len()
	want := []string{fmt.Sprintf("first(1) after a report of %d bytes", n), fmt.Sprintf("second(1) after a report of %d bytes", n)}
	if code != 1 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("cleanups of a run that leaks: got exit code %d and %q, want 1 and %q", code, got, want)
	}
}

// Bad options fail the run before any test runs, and say what to fix.
func TestVerifyTestMainBadOptions(t *testing.T) {
	for name, c := range map[string]struct {
		opt  MainOption
		want string
	}{
		"nil option":           {nil, "exectest.VerifyTestMain: option: got nil, want a MainOption"},
		"empty top function":   {IgnoreTopFunction(""), `exectest.IgnoreTopFunction: f: got "", want a function's full name`},
		"empty any function":   {IgnoreAnyFunction(""), `exectest.IgnoreAnyFunction: f: got "", want a function's full name`},
		"nil process function": {IgnoreProcess(nil), "exectest.IgnoreProcess: f: got nil, want a func(proctest.Process) bool"},
		"nil cleanup":          {Cleanup(nil), "exectest.Cleanup: f: got nil, want a func(exitCode int)"},
	} {
		t.Run(name, func(t *testing.T) {
			var report strings.Builder
			ran := false
			code := verifyTestMain(runFunc(func() int { ran = true; return 0 }), &report, c.opt)
			if code == 0 || ran || !strings.Contains(report.String(), c.want) || !strings.Contains(report.String(), "(no test ran)") {
				t.Errorf("got exit code %d, tests run %v, report\n%s\nwant a failure before any test, saying %q", code, ran, report.String(), c.want)
			}
		})
	}
}

// So do bad values of the switches: before, "EXECTEST_STRICT=true" failed
// every check, one at a time, as bad input.
func TestVerifyTestMainBadSwitches(t *testing.T) {
	for _, name := range []string{"EXECTEST_STRICT", "EXECTEST_PORTABLE"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, "yes")
			var report strings.Builder
			ran := false
			code := verifyTestMain(runFunc(func() int { ran = true; return 0 }), &report)
			want := "exectest: " + name + `: got "yes", want one of 1, t, T, true`
			if code == 0 || ran || !strings.Contains(report.String(), want) {
				t.Errorf("got exit code %d, tests run %v, report\n%s\nwant a failure before any test, saying %q", code, ran, report.String(), want)
			}
		})
	}
}
