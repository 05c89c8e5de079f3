package proctest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
)

// ErrGone says that a process has exited, or was never seen, in /proc.
var ErrGone = errors.New("no such process in /proc (exited already?)")

// Resolve finds, in the test's PID namespace, the process that calls itself
// innerPID in its own namespace and started at start (a process inside a
// sandbox with its own PID namespace reports pids the test cannot use).
//
// The common case, a process in the test's own namespace, costs one read.
// Otherwise it reads /proc/*/stat once, comparing start times before
// anything else.
func Resolve(innerPID int, start uint64) (Identity, error) {
	if s, err := ReadStat(innerPID); err == nil && s.Start == start {
		if ns, err := NSpid(innerPID); err == nil && len(ns) > 0 && ns[len(ns)-1] == innerPID {
			return Identity{PID: innerPID, Start: start}, nil
		}
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return Identity{}, fmt.Errorf("proctest: resolve pid %d: %w", innerPID, err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		s, err := ReadStat(pid)
		if err != nil || s.Start != start {
			continue
		}
		if ns, err := NSpid(pid); err == nil && len(ns) > 0 && ns[len(ns)-1] == innerPID {
			return Identity{PID: pid, Start: start}, nil
		}
	}
	return Identity{}, fmt.Errorf("proctest: resolve pid %d (start %d): %w", innerPID, start, ErrGone)
}
