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
	ignoreSignals()
	closeInherited()
	proc.CacheBootTime()
	serve(owner, os.NewFile(pipeFD, "watchdog"))
	exit(0)
}
