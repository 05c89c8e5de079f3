//go:build unix

package monitor

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/marker"
)

// A run that ended before any report is explained by its exit status, the
// fixture's status for a FIFO it could not open, and the fixture's own
// words on the command's stderr where the runner kept them.
func TestRanUnreported(t *testing.T) {
	s := fixture.Spec{Token: "tok2", Marker: "/nowhere/marker"}
	fail := strings.TrimSpace(marker.Line(s.Token, marker.Fail, "no FIFO at /nowhere/marker"))
	script := "echo 'sh: 1: cannot open' >&2; echo '" + fail + "' >&2; exit " + strconv.Itoa(fixture.StatusFIFONotFound)
	_, err := exec.CommandContext(context.Background(), "/bin/sh", "-c", script).Output()
	got := RanUnreported(err, s)
	for _, want := range []string{
		"the command ran and exited with status " + strconv.Itoa(fixture.StatusFIFONotFound) + " before the fixture child reported",
		"it found no report FIFO at /nowhere/marker",
		`the fixture said on its stderr: no FIFO at /nowhere/marker (after "sh: 1: cannot open")`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("RanUnreported: got %q, want %q in it", got, want)
		}
	}

	err = exec.CommandContext(context.Background(), "/bin/sh", "-c", "kill -9 $$").Run()
	if got := RanUnreported(err, s); !strings.Contains(got, "ended by a signal (killed)") {
		t.Errorf("RanUnreported of a killed command: got %q, want it to name the signal", got)
	}
	for _, err := range []error{nil, errors.New("exec: not started")} {
		if got := RanUnreported(err, s); got != "" {
			t.Errorf("RanUnreported(%v): got %q, want \"\": nothing says the command ran", err, got)
		}
	}
}
