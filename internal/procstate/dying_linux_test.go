package procstate

import (
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// killedAtRead makes the n-th read of the namespace link of id's process
// kill and reap that process first: the process dies between a look that
// found it alive and not signalled and the read, which then fails.
func killedAtRead(t *testing.T, n int, kill func()) {
	t.Helper()
	orig := pidNamespace
	t.Cleanup(func() { pidNamespace = orig })
	reads := 0
	pidNamespace = func(pid string) (string, error) {
		if pid != "self" {
			if reads++; reads == n {
				kill()
			}
		}
		return orig(pid)
	}
}

// A process killed and reaped between Dying's look at its stat and the
// read of its namespace is dying, not alive: the read fails, and a
// failed read is not "in the test's own namespace, not being killed".
func TestDyingWhenTheProcessGoesMidLook(t *testing.T) {
	testenv.LinuxMode(t)
	for _, c := range []struct {
		name  string
		read  int // the read that the death comes before
		dying func(id proc.Identity) bool
	}{
		{"Dying, its namespace read", 1, Dying},
		{"DyingSoon, its own read after Dying's", 2, DyingSoon},
	} {
		t.Run(c.name, func(t *testing.T) {
			//execcheck:ignore /bin/sleep starts nothing; killed and reaped here or by the cleanup
			cmd, id := start(t, "/bin/sleep", "10")
			killedAtRead(t, c.read, func() { cmd.Process.Kill(); cmd.Wait() })
			if !c.dying(id) {
				t.Errorf("pid %d killed and reaped before read %d of its namespace: got not dying, want dying", id.PID, c.read)
			}
			if cmd.ProcessState == nil {
				t.Fatalf("pid %d: read %d of its namespace never came: the test tests nothing", id.PID, c.read)
			}
		})
	}
}

// The same reads of a process that stays alive say it is not dying: the
// fault injection alone changes nothing.
func TestNotDyingWhenTheProcessStays(t *testing.T) {
	testenv.LinuxMode(t)
	//execcheck:ignore /bin/sleep starts nothing; the cleanup kills and reaps it
	_, id := start(t, "/bin/sleep", "10")
	killedAtRead(t, 1, func() {})
	if Dying(id) || DyingSoon(id) {
		t.Errorf("pid %d asleep: got dying, want not dying", id.PID)
	}
}
