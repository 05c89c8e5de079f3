//go:build unix

package proctest_test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/proctest"
	"github.com/exectest/exectest/recorder"
)

var pidRE = regexp.MustCompile(`pid \d+`)

// printTest runs fn as a test on a recorder and prints how it ended and
// each message's first two lines, pids masked: what a reader of the
// test's output sees.
func printTest(fn func(t testing.TB)) {
	rec := recorder.Run(nil, "example", fn)
	fmt.Println(strings.ToUpper(rec.Verdict()))
	for _, m := range rec.Errors() {
		lines := strings.SplitN(m, "\n", 3)
		for _, l := range lines[:min(2, len(lines))] {
			l, _, _ = strings.Cut(l, ": ppid") // the rest varies
			fmt.Println(pidRE.ReplaceAllString(l, "pid N"))
		}
	}
}

// A test that leaves a process running.
func ExampleVerifyNone() {
	var cmd *exec.Cmd
	printTest(func(t testing.TB) {
		defer proctest.VerifyNone(t, proctest.IgnoreCurrent(), proctest.MaxWait(10*time.Millisecond))
		cmd = exec.Command("/bin/sleep", "60")
		cmd.Start() // and never stopped
	})
	cmd.Wait() // VerifyNone killed it; its owner still reaps it
	// Output:
	// FAIL
	// proctest: unexpected processes below the test process: got 1, want 0
	// 	pid N
}

// Find only finds: the test decides what to do with the error.
func ExampleFind() {
	base := proctest.IgnoreCurrent()
	cmd := exec.Command("/bin/sleep", "60")
	cmd.Start()
	err := proctest.Find(base, proctest.MaxWait(10*time.Millisecond))
	first, _, _ := strings.Cut(fmt.Sprint(err), "\n")
	fmt.Println(first)
	cmd.Process.Kill()
	cmd.Wait()
	fmt.Println(proctest.Find(base))
	// Output:
	// proctest: unexpected processes below the test process: got 1, want 0
	// <nil>
}

// A process the test keeps on purpose is named, and not reported.
func ExampleIgnoreProcess() {
	base := proctest.IgnoreCurrent()
	helper := exec.Command("/bin/sleep", "60")
	helper.Start()
	defer helper.Wait()
	defer helper.Process.Kill()
	fmt.Println(proctest.Find(base, proctest.IgnoreProcess(func(p proctest.Process) bool {
		return p.PID == helper.Process.Pid
	})))
	// Output:
	// <nil>
}
