//go:build unix

package procstate

import (
	"os/exec"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// TestPortable: the portable mode has no watch, says why, and counts a
// process as dying only once it is gone or a zombie.
func TestPortable(t *testing.T) {
	testenv.PortableMode(t)
	//execcheck:ignore /bin/sleep starts nothing; the cleanup kills and reaps it
	cmd, id := start(t, "/bin/sleep", "30")
	if w, err := Open(id); err == nil || w != nil {
		t.Errorf("Open in the portable mode: got %v, %v, want nil and an error", w, err)
	} else if err != errNoWatch {
		t.Errorf("Open's error: got %v, want %v", err, errNoWatch)
	}
	if Dying(id) || DyingSoon(id) {
		t.Errorf("Dying of a sleeping process: got true, want false")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !Dying(id) || !DyingSoon(id) {
		t.Errorf("Dying of a killed and reaped process: got false, want true")
	}
}

func start(t *testing.T, argv ...string) (*exec.Cmd, proc.Identity) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	return cmd, testenv.Start(t, cmd)
}
