package exectest

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
