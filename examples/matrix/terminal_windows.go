package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// isTerminal says whether f is a console: only a console has a mode.
func isTerminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
