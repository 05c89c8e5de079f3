package proctest_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/proctest"
	"github.com/shirou/gopsutil/v4/process"
)

// leakWindows starts, and leaves running, this test binary again: a
// process below the test process whose command line is known, with no
// program that Wine may lack.
func leakWindows(t *testing.T, tag string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// -test.run matches no test: the binary exits at once unless killed,
	// so -test.bench runs a benchmark of nothing for as long as asked.
	// The tag comes after "--", where the flag package stops: an unknown
	// flag would end the process at its start.
	//execcheck:ignore BenchmarkWindowsLeak sleeps and starts no process: nothing outlives the cleanup's kill
	cmd := exec.Command(exe, "-test.run=^$", "-test.bench=^BenchmarkWindowsLeak$", "-test.benchtime=30s", "--", "-exectest.leak="+tag)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if last, ok := testenv.AwaitListed(cmd.Process.Pid, "-exectest.leak="+tag, 10*time.Second); !ok {
		t.Skipf("leaked pid %d: not listed with its command line within 10s (last seen: %s): the premise does not hold on this machine", cmd.Process.Pid, last)
	}
	return cmd
}

// BenchmarkWindowsLeak is what a leaked process of leakWindows runs: it
// sleeps, as long as its -test.benchtime asks.
func BenchmarkWindowsLeak(b *testing.B) {
	for b.Loop() {
		time.Sleep(10 * time.Millisecond)
	}
}

// On Windows (run under Wine), VerifyNone names a process a test leaves,
// by pid and command line, and kills it by its handle, checked against
// the creation time: it is gone afterwards, judged by gopsutil directly.
// With nothing leaked, it passes.
func TestVerifyNoneOnWindows(t *testing.T) {
	base := proctest.IgnoreCurrent()
	cmd := leakWindows(t, "verifynone")
	var rt recordingT
	proctest.VerifyNone(&rt, base, proctest.MaxWait(50*time.Millisecond))
	want := fmt.Sprintf("pid %d", cmd.Process.Pid)
	if !strings.Contains(rt.text(), "unexpected processes below the test process: got 1, want 0") ||
		!strings.Contains(rt.text(), want) || !strings.Contains(rt.text(), "-exectest.leak=verifynone") {
		t.Errorf("VerifyNone with a leaked process: got %q, want it to name %s and -exectest.leak=verifynone", rt.text(), want)
	}
	var alive bool
	if !backoff.Poll(5*time.Second, time.Millisecond, 50*time.Millisecond, func() bool {
		alive, _ = process.PidExists(int32(cmd.Process.Pid))
		return !alive
	}) {
		t.Errorf("pid %d after VerifyNone: got alive, want killed", cmd.Process.Pid)
	}
	cmd.Wait()
	var clean recordingT
	proctest.VerifyNone(&clean, base)
	if len(clean.errors) > 0 {
		t.Errorf("VerifyNone with nothing leaked: got %q, want no error", clean.text())
	}
}
