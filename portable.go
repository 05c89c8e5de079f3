package exectest

import (
	"runtime"

	"github.com/exectest/exectest/internal/proc"
)

// portableNote says why the portable mode runs: forced on Linux, or the
// only mode on this system.
func portableNote() string {
	if runtime.GOOS == "linux" {
		return proc.PortableEnv + "=1"
	}
	return runtime.GOOS
}
