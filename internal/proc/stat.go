package proc

import (
	"fmt"
	"strconv"
	"strings"
)

// Stat holds the fields of /proc/PID/stat that the toolkit reads.
type Stat struct {
	PID     int
	Comm    string
	State   string // one letter: R, S, D, Z, T, X, ...
	PPID    int
	PGID    int
	SID     int
	Flags   uint64 // the kernel's PF_* flags (field 9): PF_EXITING says it is exiting
	Threads int    // threads in its thread group (field 20); 0 where unknown (the portable mode)
	Start   uint64 // start time: clock ticks since boot; in the portable mode, ms since the epoch
	RawLine string
}

// ParseStat parses one line in the format of /proc/PID/stat. The command
// name may hold spaces and parentheses, so it is cut at the last ')'.
func ParseStat(line string) (Stat, error) {
	line = strings.TrimSpace(line)
	open := strings.IndexByte(line, '(')
	closing := strings.LastIndexByte(line, ')')
	if open < 0 || closing < open {
		return Stat{}, fmt.Errorf("proctest: stat line: got %q, want \"PID (COMM) STATE ...\"", line)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	if err != nil {
		return Stat{}, fmt.Errorf("proctest: stat line pid: %w", err)
	}
	// Fields after the comm start at field 3 (state); starttime is field 22.
	rest := strings.Fields(line[closing+1:])
	if len(rest) < 20 {
		return Stat{}, fmt.Errorf("proctest: stat line: got %d fields after the command name, want at least 20", len(rest))
	}
	s := Stat{PID: pid, Comm: line[open+1 : closing], State: rest[0], RawLine: line}
	ints := []*int{&s.PPID, &s.PGID, &s.SID}
	for i, p := range ints {
		if *p, err = strconv.Atoi(rest[1+i]); err != nil {
			return Stat{}, fmt.Errorf("proctest: stat line field %d: %w", 4+i, err)
		}
	}
	if s.Flags, err = strconv.ParseUint(rest[6], 10, 64); err != nil {
		return Stat{}, fmt.Errorf("proctest: stat line flags: %w", err)
	}
	if s.Threads, err = strconv.Atoi(rest[17]); err != nil {
		return Stat{}, fmt.Errorf("proctest: stat line num_threads: %w", err)
	}
	if s.Start, err = strconv.ParseUint(rest[19], 10, 64); err != nil {
		return Stat{}, fmt.Errorf("proctest: stat line starttime: %w", err)
	}
	return s, nil
}

// ReadStat reads /proc/PID/stat, or in the portable mode the same facts
// from gopsutil (without Flags and RawLine).
func ReadStat(pid int) (Stat, error) { return current().readStat(pid) }

func procPath(pid int, name string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + name
}

// Zombie reports whether the state is one of a process that has exited
// and waits to be reaped (or is being torn down): it counts as dead.
func (s Stat) Zombie() bool { return s.State == "Z" || s.State == "X" || s.State == "x" }

// LeaderExited reports whether the process's main thread has exited while
// other threads of it remain: its stat reads Z. The process lives, and
// holds what its threads hold, if one of them runs on (pthread_exit in
// main), not if they are dying too (a SIGKILL takes the threads one by
// one): [Identity.Alive] looks at them. A zombie whose thread group is
// gone counts one thread.
func (s Stat) LeaderExited() bool { return s.Zombie() && s.Threads > 1 }

// pfExiting is the kernel's PF_EXITING: the process is in exit(2) and
// will be dead in a moment, whatever it does.
const pfExiting = 0x4

// Exiting reports whether the process has started to exit.
func (s Stat) Exiting() bool { return s.Zombie() || s.Flags&pfExiting != 0 }
