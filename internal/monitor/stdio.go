package monitor

import (
	"fmt"
	"strings"

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
func readStdio(pid int) (targets [3]string, read bool) {
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
