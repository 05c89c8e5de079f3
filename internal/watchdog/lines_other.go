//go:build !linux

package watchdog

import (
	"os"

	"github.com/exectest/exectest/internal/proc"
)

// readLines calls each for every line the test process sends on the pipe
// fd until its EOF, which comes when every write end is closed: the test
// process's, at its exit, and any copy a process it forked still holds
// (one that has not exec'd yet). Linux also watches the test process
// itself (see lines_linux.go).
func readLines(_ proc.Identity, fd uintptr, each func(string)) {
	scanLines(os.NewFile(fd, "watchdog"), each)
}
