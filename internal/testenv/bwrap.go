package testenv

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
)

// NeedBwrap skips t unless bubblewrap makes a sandbox here (see
// [BwrapProbe]), or fails it under EXECTEST_STRICT=1: CI installs
// bubblewrap so that these tests run.
func NeedBwrap(t testing.TB) {
	t.Helper()
	if err := BwrapProbe(); err != nil {
		envswitch.Unmet(t, "bubblewrap: got %v, want a sandbox", err)
	}
}

// BwrapProbe runs /bin/true in the sandbox [BwrapArgs] makes without options: nil,
// or why bubblewrap cannot make one here. Installed is not enough: bwrap
// also needs user namespaces, or root.
func BwrapProbe() error {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return fmt.Errorf("bubblewrap not installed (apt-get install bubblewrap): %w", err)
	}
	args := append(BwrapArgs(), "/bin/true")
	out, err := exec.Command(path, args[1:]...).CombinedOutput()
	if err == nil {
		return nil
	}
	why := err.Error()
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(out) > 0 {
		why = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	return fmt.Errorf("bwrap cannot make a sandbox here (no user namespaces?): %s: %w", why, err)
}
