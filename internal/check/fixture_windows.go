package check

import (
	"errors"
	"os"
	"syscall"
)

// errNoFIFO says why no fixture runs on Windows yet.
var errNoFIFO = errors.New("windows: no FIFO for the fixture to report to")

func mkfifo(string, uint32) error { return errNoFIFO }

// getpgrp is 0: Windows has no process groups of this kind.
func getpgrp() int { return 0 }

// raise ends the test process as the signal would: Windows cannot send
// itself one.
func raise(sig syscall.Signal) { os.Exit(2) }

// noFixtureHere says why no fixture runs on Windows: until one exists,
// NewDescendant skips there (fails under EXECTEST_STRICT=1). proctest
// works on Windows as far as gopsutil does.
func noFixtureHere() string {
	return "exectest: no fixture runs on Windows yet: the fixture is a /bin/sh script (or the test binary, with Hermetic) that reports through a FIFO, and Windows has neither /bin/sh nor FIFOs"
}
