package watchdog

import (
	"os"
	"strconv"
	"strings"

	"github.com/exectest/exectest/internal/proc"
)

// roleFlag starts the watchdog's arguments: -exectest.watchdog=OWNER,
// where OWNER is the test process's pid.
const roleFlag = "-exectest.watchdog="

// A test binary started as the watchdog serves as one and exits here,
// before its tests, or its TestMain, could run: no hook needed.
func init() {
	if len(os.Args) != 2 || !strings.HasPrefix(os.Args[1], roleFlag) {
		return
	}
	owner, err := strconv.Atoi(strings.TrimPrefix(os.Args[1], roleFlag))
	if err != nil || owner <= 1 {
		exit(2)
	}
	// Closed before the signals are ignored, which tells its tests that
	// the init is done: a look in between saw the inherited descriptors
	// still open. The window before both, the runtime's start, is far
	// longer than the close.
	closeInherited()
	ignoreSignals()
	proc.CacheBootTime()
	serve(owner, os.NewFile(pipeFD, "watchdog"))
	exit(0)
}
