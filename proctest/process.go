package proctest

import (
	"time"

	"github.com/exectest/exectest/internal/proc"
)

// Process is what a report says of one process: who it is, where it stands
// in the process tree, what it runs, and which of a command's pipes it
// holds.
type Process struct {
	// PID and Start (clock ticks since boot, field 22 of /proc/PID/stat;
	// in the portable mode, gopsutil's creation time in ms since the
	// epoch) name the process for its whole life: a recycled pid has
	// another start time.
	PID   int
	Start uint64
	// PPID, PGID and SID are its parent, process group and session, as
	// the test's PID namespace numbers them.
	PPID, PGID, SID int
	// State is the state letter of /proc/PID/stat: R, S, D, T, ... (a
	// zombie is never reported; Z is a process whose main thread exited
	// while its other threads run, which hold its descriptors).
	State string
	// Age is how long it had run when the report was made.
	Age time.Duration
	// Cmdline is its arguments joined by spaces ("[comm]" for a process
	// without any, as a kernel thread); an argument that spans lines
	// shows as '...'.
	Cmdline string
	// Role is what exectest knows the process as ("descendant", "fixture
	// child", ...), "" for a process it does not know.
	Role string
	// Stdio says what fds 0 to 2 point to: "fd 1 pipe:[1234]", ...
	Stdio []string
	// Holds names the command's pipes of which the process holds a write
	// end, in exectest's reports: "stdout pipe:[1234] (fd 1)".
	Holds []string
	// Adopted says that the test process, a child subreaper, did not
	// start the process: it came to it as an orphan when its own parent
	// exited (a double fork, a setsid daemon, what is left of a group
	// another library killed). It is set only where that is known: exectest
	// saw the process with another parent before (Linux).
	Adopted bool
	// OriginUnknown says that the test process is the parent and that
	// whether it started the process or adopted it cannot be told: Go
	// holds no pidfd on it any more (Wait, Release, or the garbage
	// collector freed its *os.Process), and exectest saw neither its
	// start nor another parent. Only where the test process can adopt:
	// a child subreaper (Linux), or the init of its PID namespace.
	OriginUnknown bool
}

// String is the process on one line: pid, role, parent, group, session,
// state, age, command line, and the pipes it holds or its stdio.
func (p Process) String() string { return proc.Facts(p).String() }
