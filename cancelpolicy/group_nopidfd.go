//go:build unix && !linux

package cancelpolicy

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// pin and unpin: no pidfd here; the group is signalled by number, while
// the direct child is unreaped.
func (g *group) pin(started bool) {}

func (g *group) unpin() {}

func (g *group) signal(sig syscall.Signal) error { return g.byNumber(sig) }

// empty reports whether no process is left in the group by its number:
// signal 0 delivers nothing, so a number reused by another group only
// makes Wait wait out the grace.
func (g *group) empty() bool {
	return errors.Is(unix.Kill(-g.cmd.Process.Pid, 0), unix.ESRCH)
}
