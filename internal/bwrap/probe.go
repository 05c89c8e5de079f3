package bwrap

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
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
