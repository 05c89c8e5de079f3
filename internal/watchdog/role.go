package watchdog

import (
	"fmt"
	"os"
	"strings"

	"github.com/exectest/exectest/internal/proc"
)

// roleFlag starts the watchdog's arguments: -exectest.watchdog=PID,START,IN:
// the test process's identity as it reads it (see [proc.MeasureStartsAs]),
// and the descriptor (on Windows, the handle) of the pipe's read end.
const roleFlag = "-exectest.watchdog="

// roleArg is the watchdog's argument for the test process owner, whose
// pipe it reads from descriptor in.
func roleArg(owner proc.Identity, in uintptr) string {
	return fmt.Sprintf("%s%d,%d,%d", roleFlag, owner.PID, owner.Start, in)
}

// A test binary started as the watchdog serves as one and exits here,
// before its tests, or its TestMain, could run: no hook needed.
func init() {
	if len(os.Args) != 2 || !strings.HasPrefix(os.Args[1], roleFlag) {
		return
	}
	var (
		owner proc.Identity
		in    uintptr
	)
	n, err := fmt.Sscanf(strings.TrimPrefix(os.Args[1], roleFlag), "%d,%d,%d", &owner.PID, &owner.Start, &in)
	if err != nil || n != 3 || owner.PID <= 1 {
		exit(2)
	}
	// Closed before the signals are ignored, which tells its tests that
	// the init is done: a look in between saw the inherited descriptors
	// still open. The window before both, the runtime's start, is far
	// longer than the close.
	closeInherited()
	ignoreSignals()
	// Read as the test process reads them, the identities it sends match.
	// Should the test process be gone already, it sent nothing to match.
	proc.MeasureStartsAs(owner)
	serve(owner, in)
	exit(0)
}
