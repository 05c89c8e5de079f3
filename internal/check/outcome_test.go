//go:build unix

package check_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// A pass says what it proved, in one line (go test -v shows it). Before,
// a pass in the Linux mode said nothing.
func TestPassSaysWhatItProved(t *testing.T) {
	t.Parallel()
	pipes := ", 0 pipe ends left open"
	if systemtest.Portable {
		pipes = "" // it cannot see them: the portable mode's line says so
	}
	for _, c := range []struct {
		name string
		fn   func(tb testing.TB)
		want string
	}{
		{"default", func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()))
		}, `^exectest: pass: cancel→return [0-9.]+[µm]?s \(bound 1s\), 0 survivors, 0 leaked goroutines` + pipes + `, proved [0-9.]+[µm]?s after start`},
		// The descendant may still prove it runs after the cancel, before
		// run stops it: the line then says so.
		{"cancel during start-up", func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, stopsOnceStarted(d), exectest.CancelAfter(0))
		}, `^exectest: pass: cancel→return [0-9.]+[µm]?s \(bound 1s\), 0 survivors, 0 leaked goroutines` + pipes + `, cancelled [0-9.]+[µm]?s after start, (before the descendant proved it runs \(fixture child pid [0-9]+ reported|proved [0-9.]+[µm]?s after start \(after the cancel\))`},
		{"checks off", func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()), exectest.WithoutGoroutineCheck(), exectest.WithoutDescriptorCheck(), exectest.Within(2*time.Second))
		}, `^exectest: pass: cancel→return [0-9.]+[µm]?s \(bound 2s\), 0 survivors, goroutines not checked \(WithoutGoroutineCheck\), pipe ends not checked \(WithoutDescriptorCheck\), proved`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := systemtest.RunFakeAs(t, systemtest.FreshName(t), c.fn)
			f.WantVerdict(t, "pass")
			logs := f.Logs()
			if len(logs) != 1 || strings.Contains(logs[0], "\n") || !regexp.MustCompile(c.want).MatchString(logs[0]) {
				t.Errorf("logs of a pass: got %q, want one line matching %s", logs, c.want)
			}
			if systemtest.Portable && !strings.Contains(logs[0], "; in the portable mode (") {
				t.Errorf("pass line in the portable mode: got %q, want it to say what the mode cannot see", logs[0])
			}
		})
	}
	t.Run("a failure says no pass", func(t *testing.T) {
		t.Parallel()
		f := systemtest.RunFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, systemtest.WaitDelayOnly(d.Argv()))
		})
		f.WantVerdict(t, "fail")
		if strings.Contains(f.Recorded(), "exectest: pass") {
			t.Errorf("a failing check: got a pass line:%s", f.Recorded())
		}
	})
}

// helperSkipsEnv makes TestHelperSkipsVacuously run, in a child test
// binary started by TestVacuousSkipsAreCountedAtTheEnd.
const helperSkipsEnv = "EXECTEST_HELPER_SKIPS_VACUOUSLY"

// TestHelperSkipsVacuously has three checks of a real testing.T skip as
// vacuous (their runner never runs the command), and one on a recorder,
// which is the toolkit's own and not counted.
func TestHelperSkipsVacuously(t *testing.T) {
	testenv.OnlyAsHelper(t, helperSkipsEnv)
	for _, name := range []string{"a", "b", "c"} {
		t.Run(name, func(t *testing.T) {
			d := exectest.NewDescendant(t)
			exectest.AssertCancel(t, d, systemtest.NeverRuns(d.Argv()))
		})
	}
	systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, systemtest.NeverRuns(d.Argv()))
	})
}

// Skips must not hide: a test binary whose checks skipped as vacuous says
// how many at the end, on stderr, in one line, and to set
// EXECTEST_STRICT=1 in CI. Before, only go test -v showed them, one by one.
func TestVacuousSkipsAreCountedAtTheEnd(t *testing.T) {
	t.Parallel()
	const want = "exectest: 3 checks skipped as vacuous: they proved nothing here (each skip says why, under go test -v); set EXECTEST_STRICT=1 in CI to make them failures\n"
	for strict, wantLine := range map[string]bool{"0": true, "1": false} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSkipsVacuously$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperSkipsEnv+"=1", "EXECTEST_STRICT="+strict)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if failed := err != nil; failed == wantLine {
			t.Errorf("EXECTEST_STRICT=%s: the test binary: got %v, want failed %v\nstdout:\n%s\nstderr:\n%s", strict, err, !wantLine, stdout.String(), stderr.String())
		}
		if got := strings.Contains(stderr.String(), "skipped as vacuous"); got != wantLine || wantLine && !strings.HasSuffix(stderr.String(), want) {
			t.Errorf("EXECTEST_STRICT=%s: stderr: got\n%s\nwant the last line %v: %q", strict, stderr.String(), wantLine, want)
		}
	}
}

// stopsOnceStarted starts the command in a process group of its own and,
// at the cancel, waits for the fixture child's first report, then kills
// the group: the fixture always starts, and every cancel comes before
// the descendant proves it runs, as when the cancel window is shorter
// than the fixture's start-up.
func stopsOnceStarted(d *exectest.Descendant) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.Command(d.Argv()[0], d.Argv()[1:]...)
		cmd.Stdout = new(bytes.Buffer) // a pipe, as in most runners
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return err
		}
		<-ctx.Done()
		backoff.Poll(10*time.Second, time.Millisecond, 10*time.Millisecond, check.FixtureOf(d).Started)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		return ctx.Err()
	}
}
