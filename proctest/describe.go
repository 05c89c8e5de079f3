package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// Process is what a failure message says about one process.
type Process struct {
	Identity
	PPID, PGID, SID int
	State           string
	Age             time.Duration
	Cmdline         string
	Role            string   // what the toolkit knows it as: "descendant", "direct child", ...
	Stdio           []string // "fd 1 pipe:[1234]", ... for fds 0-2
}

// Describe gathers the facts of a process for a message. It returns false
// when the process is gone or is a zombie.
func Describe(id Identity, role string) (Process, bool) {
	s, err := id.Stat()
	if err != nil || s.Zombie() {
		return Process{}, false
	}
	p := Process{Identity: id, PPID: s.PPID, PGID: s.PGID, SID: s.SID, State: s.State, Role: role}
	if gp, err := process.NewProcess(int32(id.PID)); err == nil {
		if args, err := gp.CmdlineSlice(); err == nil {
			p.Cmdline = joinArgs(args)
		}
	}
	p.Age = age(s.Start)
	if p.Cmdline == "" {
		p.Cmdline = "[" + s.Comm + "]"
	}
	for fd := 0; fd <= 2; fd++ {
		if target, err := os.Readlink(procPath(id.PID, "fd/"+strconv.Itoa(fd))); err == nil {
			p.Stdio = append(p.Stdio, "fd "+strconv.Itoa(fd)+" "+target)
		}
	}
	return p, true
}

// String is one line: pid, role, parent, group, session, state, age,
// command line and what its standard descriptors point to.
func (p Process) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pid %d", p.PID)
	if p.Role != "" {
		fmt.Fprintf(&b, " (%s)", p.Role)
	}
	fmt.Fprintf(&b, ": ppid %d, pgid %d, sid %d, state %s, age %v: %s", p.PPID, p.PGID, p.SID, p.State, p.Age, shorten(p.Cmdline))
	if len(p.Stdio) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(p.Stdio, ", "))
	}
	return b.String()
}

// HoldsPipe reports whether one of the process's standard descriptors is a
// pipe.
func (p Process) HoldsPipe() bool {
	for _, s := range p.Stdio {
		if strings.Contains(s, "pipe:[") {
			return true
		}
	}
	return false
}

// SafeGroup reports whether a process group may be signalled as a whole by
// the test: never group 0 or 1, never the test's own group.
func SafeGroup(pgid int) bool {
	return pgid > 1 && pgid != unix.Getpgrp()
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

// ticksPerSecond is USER_HZ, the unit of start times in /proc: 100 on
// every Linux architecture.
const ticksPerSecond = 100

// age is how long ago a process that started at start (clock ticks since
// boot) started, to the tick.
func age(start uint64) time.Duration {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(string(b), " ")
	up, err := strconv.ParseFloat(f, 64)
	if err != nil {
		return 0
	}
	d := time.Duration(up*float64(time.Second)) - time.Duration(start)*time.Second/ticksPerSecond
	return max(d, 0).Round(10 * time.Millisecond)
}
