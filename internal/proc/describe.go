package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// Facts is what a message says of one process. Its fields are those of
// proctest.Process, in the same order, so that one converts to the other.
type Facts struct {
	PID             int
	Start           uint64 // clock ticks since boot (portable mode: ms since the epoch): with PID, the process's identity
	PPID, PGID, SID int
	State           string
	Age             time.Duration
	Cmdline         string
	Role            string   // what the toolkit knows it as: "descendant", "fixture child", ...
	Stdio           []string // "fd 1 pipe:[1234]", ... for fds 0-2
	Holds           []string // the command's pipes it holds a write end of (see [Process.Label])
	Adopted         bool     // it came to the test process when its own parent exited: see [OriginOf]
	OriginUnknown   bool     // a child of the test process, started by it or adopted: cannot tell (see [OriginOf])
}

// Process is the facts of a process and its open descriptors.
type Process struct {
	Facts
	FDs []FD // every open descriptor
}

// ID is the process's identity.
func (f Facts) ID() Identity { return Identity{PID: f.PID, Start: f.Start} }

// Describe gathers the facts of a process for a message. It returns false
// when the process is gone or is a zombie; one whose main thread alone
// exited ([Stat.LeaderExited]) lives, and is described, state Z, with
// what its threads hold.
func Describe(id Identity, role string) (Process, bool) {
	s, err := id.Stat()
	if err != nil || s.Zombie() && !(s.LeaderExited() && liveThread(id.PID) > 0) {
		return Process{}, false
	}
	origin := OriginOf(id, s.PPID)
	p := Process{Facts: Facts{PID: id.PID, Start: id.Start, PPID: s.PPID, PGID: s.PGID, SID: s.SID, State: s.State, Role: role,
		Adopted: origin == Adopted, OriginUnknown: origin == OriginUnknown}}
	if gp, err := process.NewProcess(int32(id.PID)); err == nil {
		if args, err := gp.CmdlineSlice(); err == nil {
			p.Cmdline = joinArgs(args)
		}
	}
	p.Age = current().age(s.Start)
	if p.Cmdline == "" && s.LeaderExited() {
		p.Cmdline = threadCmdline(id.PID)
	}
	if p.Cmdline == "" {
		p.Cmdline = "[" + s.Comm + "]"
	}
	p.FDs = FDs(id.PID)
	for _, fd := range p.FDs {
		if fd.Num <= 2 {
			p.Stdio = append(p.Stdio, "fd "+strconv.Itoa(fd.Num)+" "+fd.Target)
		}
	}
	return p, true
}

// Label records which of the command's pipes the process holds a write end
// of; pipes maps a target ("pipe:[1234]") to its name ("stdout").
func (p *Process) Label(pipes map[string]string) {
	p.Holds = nil
	fds := map[string][]string{}
	var order []string
	for _, fd := range p.FDs {
		if _, ok := pipes[fd.Target]; ok && fd.Write {
			if fds[fd.Target] == nil {
				order = append(order, fd.Target)
			}
			fds[fd.Target] = append(fds[fd.Target], strconv.Itoa(fd.Num))
		}
	}
	for _, target := range order {
		p.Holds = append(p.Holds, fmt.Sprintf("%s %s (fd %s)", pipes[target], target, strings.Join(fds[target], ", ")))
	}
}

// String is one line: pid, role, parent, group, session, state, age,
// command line and what its standard descriptors point to. A parent that
// is the test process (the one that formats the line) says so, and that
// it adopted the process where that is known, or that whether it started
// or adopted it cannot be told: never a guess either way.
func (p Facts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pid %d", p.PID)
	if p.Role != "" {
		fmt.Fprintf(&b, " (%s)", p.Role)
	}
	fmt.Fprintf(&b, ": ppid %d", p.PPID)
	switch {
	case p.PPID == os.Getpid() && p.Adopted:
		b.WriteString(" (the test process, adopted: its own parent exited)")
	case p.PPID == os.Getpid() && p.OriginUnknown:
		b.WriteString(" (the test process; started by it or adopted: cannot tell)")
	case p.PPID == os.Getpid():
		b.WriteString(" (the test process)")
	}
	if hasGroups {
		fmt.Fprintf(&b, ", pgid %d, sid %d", p.PGID, p.SID)
	}
	if p.State != "?" || hasGroups {
		fmt.Fprintf(&b, ", state %s", p.State)
	}
	if p.State == "Z" {
		// Describe describes no zombie but this one.
		b.WriteString(" (main thread exited, other threads run)")
	}
	fmt.Fprintf(&b, ", started %s ago: %s", ageText(p.Age), shorten(p.Cmdline))
	if len(p.Holds) > 0 {
		fmt.Fprintf(&b, "; holds the write end of the command's %s", strings.Join(p.Holds, " and "))
	} else if len(p.Stdio) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(p.Stdio, ", "))
	}
	return b.String()
}

// ageResolution is how finely an age is known: a start time in /proc is
// in clock ticks of 10ms, and both backends round to it.
const ageResolution = 10 * time.Millisecond

// ageText says an age for a message: in ms below a second ("40ms"), and
// "<10ms" below the resolution, never "0s", which reads as no age at all.
func ageText(d time.Duration) string {
	if d < ageResolution {
		return "<" + ageResolution.String()
	}
	return d.String()
}

// SafeGroup reports whether a process group may be signalled as a whole by
// the test: never group 0 or 1, never the test's own group.
func SafeGroup(pgid int) bool {
	own, ok := ownGroup()
	return ok && pgid > 1 && pgid != own
}

// joinArgs joins a command line for a message; an argument that is a
// whole script (sh -c '...') shows as '...'.
func joinArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.Contains(a, "\n") {
			a = "'...'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// maxCmdline is how much of a command line a message shows: a shell
// fixture's is a whole script.
const maxCmdline = 160

func shorten(cmdline string) string {
	cmdline = strings.Join(strings.Fields(cmdline), " ")
	if len(cmdline) > maxCmdline {
		return cmdline[:maxCmdline] + "..."
	}
	return cmdline
}
