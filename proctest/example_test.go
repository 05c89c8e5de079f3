package proctest_test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/recorder"
	"github.com/exectest/exectest/proctest"
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

// An Identity never signals a stranger that reuses a pid.
func ExampleIdentity_Kill() {
	cmd := exec.Command("/bin/sleep", "60")
	cmd.Start()
	id, _ := proc.Identify(cmd.Process.Pid)
	stranger := proc.Identity{PID: id.PID, Start: id.Start + 1} // same pid, later start
	fmt.Println(stranger.Kill(), id.Alive())
	fmt.Println(id.Kill(), cmd.Wait())
	// Output:
	// <nil> true
	// <nil> signal: killed
}
