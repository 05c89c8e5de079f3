package check

import (
	"os"
	"syscall"
)

// mkfifo makes the fixture's report file: on Windows a plain file, which
// the fixture's processes append their reports to and the monitor tails
// (Windows has no FIFO of that kind).
func mkfifo(path string, _ uint32) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// getpgrp is 0: Windows has no process groups of this kind.
func getpgrp() int { return 0 }

// raise ends the test process as the signal would: Windows cannot send
// itself one.
func raise(sig syscall.Signal) { os.Exit(2) }

// onlyHermetic says that the test binary is the only fixture Windows has:
// there is no /bin/sh to run the shell fixture.
var onlyHermetic = true

// shapeHere says why a shape of cfg means nothing on Windows, or "": a
// cancel there ends a process by TerminateProcess or by its Job Object,
// which no disposition ignores, and Windows has no sessions or process
// groups of this kind to escape into. The waiting shape and the launcher
// run there.
func shapeHere(cfg FixtureConfig) string {
	for name, on := range map[string]bool{
		"Escaping":    cfg.Escape,
		"JobControl":  cfg.Shape.JobControl,
		"DoubleFork":  cfg.Shape.DoubleFork,
		"IgnoresTerm": cfg.Shape.IgnoreTerm,
	} {
		if on {
			return "exectest." + name + "(): no such shape on Windows, which has no sessions, process groups or signal dispositions of that kind (the fixture there takes the default shape or exectest.Launcher())"
		}
	}
	return ""
}
