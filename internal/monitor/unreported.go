package monitor

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"

	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/marker"
)

// RanUnreported says what run's error tells of a command that ran and
// ended before the fixture child reported, "" if it tells nothing (run
// returned no exit status: the command may never have started). Without
// a report, the exit status is all the test hears from the fixture: it
// exits with a status of its own when it cannot open its FIFO (see
// fixture.CannotReport), and its own words are there only if the code
// under test kept the command's stderr in the error (Cmd.Output does).
func RanUnreported(err error, s fixture.Spec) string {
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ProcessState == nil {
		return ""
	}
	var b strings.Builder
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		fmt.Fprintf(&b, "the command ran and ended by a signal (%v) before the fixture child reported", ws.Signal())
	} else {
		fmt.Fprintf(&b, "the command ran and exited with status %d before the fixture child reported", ee.ExitCode())
		if m := fixture.CannotReport(ee.ExitCode(), s); m != "" {
			b.WriteString(": " + m)
		}
	}
	// The line before the fixture's own is sh's error, in the shell shape.
	var prev string
	for line := range strings.Lines(string(ee.Stderr)) {
		if e, ok := marker.Parse(s.Token, line); ok && e.Kind == marker.Fail {
			fmt.Fprintf(&b, "\nthe fixture said on its stderr: %s", e.Text)
			if prev != "" {
				fmt.Fprintf(&b, " (after %q)", prev)
			}
		}
		prev = strings.TrimSpace(line)
	}
	return b.String()
}
