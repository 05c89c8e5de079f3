//go:build unix

package cancelpolicy

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// groupSys is what a process group needs on this system: on Linux, the
// direct child's pidfd (see pin), -1 without one; elsewhere it stays -1.
type groupSys struct{ pidfd int }

func newGroupSys() groupSys { return groupSys{pidfd: -1} }

// setGroup puts the child in a process group of its own, for Start and
// Apply alike. Setpgid after Setsid would fail the start: a session leader
// already leads its group.
func (g *group) setGroup(started bool) error {
	cmd := g.cmd
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if !cmd.SysProcAttr.Setsid {
		cmd.SysProcAttr.Setpgid, cmd.SysProcAttr.Pgid = true, 0
	}
	return nil
}

// adopt: the child is in its group from its first instruction; nothing is
// left to do after Start.
func (g *group) adopt() error { return nil }

func checkGraceful(sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok || s <= 0 || s == syscall.SIGKILL {
		return fmt.Errorf("cancelpolicy.Graceful: signal: got %v, want a syscall.Signal other than SIGKILL", sig)
	}
	return nil
}

// safeGroup reports whether pgid may be signalled as a whole: never group
// 0 or 1, never the caller's own.
func safeGroup(pgid int) bool {
	return pgid > 1 && pgid != unix.Getpgrp()
}

// byNumber signals the group by its number, only while os/exec has not
// reaped the direct child: until then the child, a zombie at worst, holds
// the number (see the package documentation for the window left).
func (g *group) byNumber(sig syscall.Signal) error {
	p := g.cmd.Process
	if !safeGroup(p.Pid) {
		return p.Signal(sig)
	}
	if err := p.Signal(syscall.Signal(0)); errors.Is(err, os.ErrProcessDone) {
		return err
	}
	err := unix.Kill(-p.Pid, sig)
	if errors.Is(err, unix.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
