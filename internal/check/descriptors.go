package check

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/exectest/exectest/internal/proc"
)

// A DescriptorSnapshot is the engine of exectest.DescriptorSnapshot.
type DescriptorSnapshot struct {
	fds map[int]string
}

// SnapshotDescriptors records the test process's open descriptors.
func SnapshotDescriptors() *DescriptorSnapshot {
	s := &DescriptorSnapshot{fds: map[int]string{}}
	for _, fd := range proc.FDs(os.Getpid()) {
		s.fds[fd.Num] = fd.Target
	}
	return s
}

// Find returns an error naming the descriptors opened since the snapshot
// that are still open after up to 1s of looking again, or nil.
func (s *DescriptorSnapshot) Find() error {
	var left []proc.FD
	settling.Poll(defaultLeakWait, func() bool {
		left = left[:0]
		for _, fd := range proc.FDs(os.Getpid()) {
			if old, ok := s.fds[fd.Num]; (!ok || old != fd.Target) && !transient(fd.Target) {
				left = append(left, fd)
			}
		}
		return len(left) == 0
	})
	if len(left) == 0 {
		return nil
	}
	return &leakedDescriptorsError{FDs: left}
}

// transient is a descriptor of the kind the runtime or the check opens for
// a moment: the /proc listing itself.
func transient(target string) bool { return strings.HasPrefix(target, "/proc/") }

// leakedDescriptorsError lists descriptors of the test process left open.
type leakedDescriptorsError struct {
	FDs  []proc.FD
	Name map[string]string // what a target is to the check: "stdout", ...
}

func (e *leakedDescriptorsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "exectest: descriptors of the test process left open: got %d, want 0", len(e.FDs))
	for _, l := range e.lines() {
		b.WriteString("\n\t" + l)
	}
	return b.String()
}

// lines says what each descriptor is, one line each, pipes first: they
// are what keeps a reader or a writer waiting.
func (e *leakedDescriptorsError) lines() []string {
	fds := slices.Clone(e.FDs)
	slices.SortStableFunc(fds, func(a, b proc.FD) int {
		return boolCmp(proc.IsPipe(b.Target), proc.IsPipe(a.Target))
	})
	var lines []string
	for _, fd := range fds {
		end := "read end"
		if fd.Write {
			end = "write end"
		}
		if !proc.IsPipe(fd.Target) {
			end = "opened for writing"
			if !fd.Write {
				end = "opened for reading"
			}
		}
		l := fmt.Sprintf("fd %d: %s, %s", fd.Num, fd.Target, end)
		if name := e.Name[fd.Target]; name != "" {
			l += fmt.Sprintf(" (the command's %s)", name)
		}
		lines = append(lines, l)
	}
	return lines
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
