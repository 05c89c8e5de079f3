package procstate

import (
	"fmt"
	"syscall"
)

// An End is how a process ended.
type End struct {
	Exited bool           // it called exit: Status is its status
	Status int            // with Exited
	Signal syscall.Signal // without Exited: the signal that killed it
}

// OnItsOwn reports whether the process ended by itself rather than by a
// signal from outside: it exited, or it crashed (a signal the process
// raises itself when it faults or aborts).
func (e End) OnItsOwn() bool {
	if e.Exited {
		return true
	}
	return selfRaised[e.Signal]
}

func (e End) String() string {
	if e.Exited {
		return fmt.Sprintf("exited with status %d", e.Status)
	}
	return fmt.Sprintf("killed by signal %d (%v)", int(e.Signal), e.Signal)
}
