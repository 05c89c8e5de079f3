package bwrap

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/envswitch"
)

// Probe runs /bin/true in the sandbox [Args] makes without options: nil,
// or why bubblewrap cannot make one here. Installed is not enough: bwrap
// also needs user namespaces, or root.
func Probe() error {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return fmt.Errorf("bubblewrap not installed (apt-get install bubblewrap): %w", err)
	}
	args := append(Args(), "/bin/true")
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

// Need skips tb unless bubblewrap makes a sandbox here, or fails it under
// EXECTEST_STRICT=1: CI installs bubblewrap so that these tests run.
func Need(tb testing.TB) {
	tb.Helper()
	if err := Probe(); err != nil {
		envswitch.Unmet(tb, "bubblewrap: got %v, want a sandbox", err)
	}
}
