//go:build unix && !linux

package cancelpolicy

import "syscall"

// pin and unpin: no pidfd here; the group is signalled by number, while
// the direct child is unreaped.
func (g *group) pin(started bool) {}

func (g *group) unpin() {}

func (g *group) signal(sig syscall.Signal) error { return g.byNumber(sig) }

// empty cannot tell without a pidfd: the group's number may name another
// group once the direct child is reaped.
func (g *group) empty() bool { return false }
