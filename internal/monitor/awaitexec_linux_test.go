package monitor

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// A descendant that reported and sleeps in /bin/sleep is proof, even when
// a look at it failed for another reason than its end (a read that gopsutil
// or /proc got wrong once); one that is gone is not.
func TestAwaitExecLooksAgainAfterAFailedRead(t *testing.T) {
	id := testenv.SleepingProcess(t)
	for _, c := range []struct {
		name    string
		readErr error
		want    string // in the reason; "" for proof
	}{
		{"a read that failed", errors.New("gopsutil: a read that failed"), ""},
		{"gone", fs.ErrNotExist, "exited right after its report"},
	} {
		t.Run(c.name, func(t *testing.T) {
			failures := 3
			statOf = func(id proc.Identity) (proc.Stat, error) {
				if failures > 0 {
					failures--
					return proc.Stat{}, c.readErr
				}
				return id.Stat()
			}
			t.Cleanup(func() { statOf = proc.Identity.Stat })
			m := &Monitor{execs: true}
			reason, raced := m.awaitExec(id, "sh")
			if raced || c.want == "" && reason != "" || c.want != "" && !strings.Contains(reason, c.want) {
				t.Errorf("awaitExec of pid %d after %d reads that failed with %v: got %q (raced %v), want %q", id.PID, 3, c.readErr, reason, raced, c.want)
			}
		})
	}
}
