package monitor

import (
	"fmt"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// OpenBeforeRun records the pipes open in the test process before run
// starts: none of them is the command's own.
func (m *Monitor) OpenBeforeRun(pipes map[string]bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.before = pipes
}

// stdioSeen is what the fixture children's stdin, stdout and stderr were
// seen to be, for a message that may say only what was seen.
type stdioSeen struct {
	fds    []string // "pid 1234: fd 0 /dev/null, fd 1 pipe:[5678], ..." per child
	unread bool     // some child's could not all be read
}

// readStdio reads what the fixture child's stdin, stdout and stderr point
// to, as the code under test set them up; read says all three were read.
// The child writes its report from the shell itself, with its stdout on
// the FIFO for the moment of the write (see fixture's childScript): while
// one of the three is still the FIFO, the shell has not put it back yet,
// and the read waits, up to stdioWait (past it, what it reads is kept).
func (m *Monitor) readStdio(pid int) ([3]string, bool) {
	// Looked at before the read, not after: once the report is written
	// the shell only puts its stdout back, so a stdout off the FIFO now
	// stays off it, while a read taken just before the shell puts it back
	// would still show the FIFO.
	stdioPolling.Poll(stdioWait, func() bool {
		for fd := range 3 {
			if proc.FDIs(pid, fd, m.path) {
				return false
			}
		}
		return true
	})
	return readStdioOnce(pid)
}

// stdioWait bounds the wait for the child's stdout to leave the FIFO:
// the shell puts it back right after its write, unless the machine does
// not let it run.
const stdioWait = time.Second

// stdioPolling looks at once, then soon: the shell is between two
// system calls.
var stdioPolling = backoff.Schedule{First: 20 * time.Microsecond, Max: time.Millisecond}

// readStdioOnce is one read of readStdio.
func readStdioOnce(pid int) (targets [3]string, read bool) {
	read = true
	for fd := range targets {
		t, err := proc.FDTarget(pid, fd)
		targets[fd], read = t, read && err == nil
	}
	return targets, read
}

// recordStdio keeps the command's own pipes among a fixture child's stdio:
// those not open in the test process before run (see OpenBeforeRun).
func (m *Monitor) recordStdio(pid int, targets [3]string, read bool) {
	for target, name := range stdioPipes(targets) {
		if !m.before[target] {
			m.pipes[target] = name
		}
	}
	if !read {
		m.stdio.unread = true
		return
	}
	desc := make([]string, len(targets))
	for fd, t := range targets {
		desc[fd] = fmt.Sprintf("fd %d %s", fd, t)
		if m.before[t] {
			desc[fd] += " (open in the test process before run)"
		}
	}
	m.stdio.fds = append(m.stdio.fds, fmt.Sprintf("pid %d: %s", pid, strings.Join(desc, ", ")))
}

// stdioPipes names the pipes among a process's stdin, stdout and stderr.
func stdioPipes(targets [3]string) map[string]string {
	pipes := map[string]string{}
	for fd, name := range [...]string{"stdin", "stdout", "stderr"} {
		target := targets[fd]
		if !proc.IsPipe(target) {
			continue
		}
		if prev, ok := pipes[target]; ok {
			name = prev + "+" + name
		}
		pipes[target] = name
	}
	return pipes
}
