package watchdog

import (
	"errors"
	"os"
	"syscall"
)

// Windows runs no fixture (see exectest.NewDescendant), so it needs no
// watchdog: none starts there.

const pipeFD = 3

func sysProcAttr() *syscall.SysProcAttr { return nil }

func ignoreSignals() {}

func closeInherited() {}

func exit(code int) { os.Exit(code) }

func executable() (string, error) {
	return "", errors.New("no watchdog on Windows, which runs no fixture")
}
