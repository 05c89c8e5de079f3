//go:build unix

package check

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mkfifo makes the fixture's FIFO.
func mkfifo(path string, mode uint32) error { return unix.Mkfifo(path, mode) }

// getpgrp is the test process's own process group.
func getpgrp() int { return unix.Getpgrp() }

// raise sends sig to the test process itself, to die of it once its
// handler is gone.
func raise(sig syscall.Signal) { syscall.Kill(os.Getpid(), sig) }

// onlyHermetic is false: the shell fixture runs wherever there is a
// /bin/sh (NewDescendant checks the programs it needs).
var onlyHermetic = false

// shapeHere is "": every shape runs on Unix.
func shapeHere(FixtureConfig) string { return "" }
