// Package procstate tells how a process stands toward its end: whether it
// is already being killed, and, once it is gone, whether something killed
// it or it ended on its own. A check needs both to tell a runner that
// stopped the tree from one that left it to die of its own accord.
package procstate

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// Dying reports whether the process named by id is on its way out: it is
// gone or a zombie, it has entered exit(2), a signal that will kill it is
// pending (SIGKILL, or one whose action is the default, terminate), or the
// PID namespace it lives in is being torn down (its init is dying, and the
// kernel kills every other member after it). A process that is alive and
// none of these is not being killed by anyone: if it dies later, something
// killed it later.
//
// The portable mode sees neither pending signals nor namespaces: a process
// is dying there once it is gone or a zombie, so one killed a moment
// before the look counts as alive (the survivor check's grace covers it).
func Dying(id proc.Identity) bool {
	s, err := id.Stat()
	if proc.Portable() {
		return err != nil || s.Exiting()
	}
	if err != nil || s.Exiting() || fatalPending(id.PID) {
		return true
	}
	return namespaceDying(id, s)
}

// exitingNow is Dying's first look taken again: the process is gone, a
// zombie, in exit(2) or has a fatal signal pending.
func exitingNow(id proc.Identity) bool {
	s, err := id.Stat()
	return err != nil || s.Exiting() || fatalPending(id.PID)
}

// pidNamespace reads the PID namespace link of the process named by pid
// ("self" for the test process). A variable: the tests make the process
// die between a look and this read.
var pidNamespace = func(pid string) (string, error) {
	return os.Readlink("/proc/" + pid + "/ns/pid")
}

// fatalPending reads the process's pending signals (its own and its
// thread group's) and reports whether one of them ends it: SIGKILL always;
// another when it neither ignores nor catches it and its default action
// is to terminate. The thread group's set keeps SIGKILL until the process
// is gone, so there is no moment between the kill and exit(2) where this
// misses it.
func fatalPending(pid int) bool {
	b, err := proc.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return true // gone since
	}
	return fatalIn(string(b))
}

// fatalIn is fatalPending on the text of /proc/PID/status. A blocked
// signal stays pending without effect until it is unblocked.
func fatalIn(status string) bool {
	var pending, ignored, caught, blocked uint64
	for line := range strings.Lines(status) {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		if err != nil {
			continue
		}
		switch k {
		case "SigPnd", "ShdPnd":
			pending |= n
		case "SigIgn":
			ignored = n
		case "SigCgt":
			caught = n
		case "SigBlk":
			blocked = n
		}
	}
	const sigkill = 1 << (9 - 1)
	return pending&sigkill != 0 || pending&^ignored&^caught&^blocked&terminatesByDefault != 0
}

// terminatesByDefault is the mask (bit N-1 for signal N) of the signals
// whose default action ends the process: all but SIGCHLD, SIGCONT, the
// four stop signals, SIGURG and SIGWINCH.
const terminatesByDefault = ^uint64(0) &^ (1<<(17-1) | 1<<(18-1) | 1<<(19-1) | 1<<(20-1) | 1<<(21-1) | 1<<(22-1) | 1<<(23-1) | 1<<(28-1))

// namespaceDying reports whether the process lives in a PID namespace other than
// the test's whose init is on its way out: when a namespace's init dies,
// the kernel kills every other member, a moment later.
func namespaceDying(id proc.Identity, s proc.Stat) bool {
	own, err := pidNamespace("self")
	if err != nil {
		return false
	}
	ns, err := pidNamespace(strconv.Itoa(id.PID))
	if err != nil {
		// The link goes with the process: one that died since the
		// look at its stat is dying, not alive.
		return exitingNow(id)
	}
	if ns == own {
		return false
	}
	top, topStat, ok := initOf(id.PID, s, ns)
	if !ok {
		return false
	}
	if topStat.Exiting() || fatalPending(top) {
		return true
	}
	// A sandbox's init usually dies with the process that made it (bwrap
	// --die-with-parent, unshare --kill-child: a parent-death signal, which
	// /proc does not show): while that parent is being killed, the
	// namespace is on its way out too. Where the init outlives it after
	// all, its members are still alive after the grace, and survivors.
	outside, err := proc.Identify(topStat.PPID)
	if err != nil {
		// Gone since the init's stat was read: its parent-death signal,
		// if it has one, was sent on the way.
		return true
	}
	return outside.PID > 1 && Dying(outside)
}

// initOf returns the init of the PID namespace ns that pid, whose stat is
// s, lives in: its topmost ancestor in ns, if that is ns's pid 1.
func initOf(pid int, s proc.Stat, ns string) (int, proc.Stat, bool) {
	top, topStat := pid, s
	for range 64 {
		pp := topStat.PPID
		if pp <= 0 {
			break
		}
		l, err := pidNamespace(strconv.Itoa(pp))
		if err != nil || l != ns {
			break
		}
		ps, err := proc.ReadStat(pp)
		if err != nil {
			break
		}
		top, topStat = pp, ps
	}
	inner, err := proc.NSpid(top)
	if err != nil || len(inner) == 0 || inner[len(inner)-1] != 1 {
		return 0, proc.Stat{}, false
	}
	return top, topStat, true
}

// sandboxTeardown bounds how long a sandbox takes to pass a kill down:
// the process that made it dies, then the kernel moves and signals the
// sandbox's init, which then kills every member. Each step is a matter of
// microseconds, but they are steps.
const sandboxTeardown = 2 * time.Millisecond

// portableTeardown is how long the portable mode gives a process to show
// that it is being killed: a SIGKILLed process is gone or a zombie within
// microseconds on an idle machine, milliseconds on a loaded one.
const portableTeardown = 20 * time.Millisecond

// DyingSoon is [Dying], except that a process in another PID namespace
// than the test's (any process, in the portable mode, which sees no
// pending signal: up to portableTeardown) gets up to a couple of
// milliseconds to show it: killing
// a sandbox reaches its members in steps (see namespaceDying), and a look
// between two steps sees a member nothing has signalled yet.
func DyingSoon(id proc.Identity) bool {
	if Dying(id) {
		return true
	}
	if proc.Portable() {
		// Pending signals cannot be seen: a process killed a moment
		// before the look still runs its exit. Give it the moment.
		return backoff.Schedule{First: 100 * time.Microsecond, Max: 2 * time.Millisecond}.Poll(portableTeardown, func() bool { return Dying(id) })
	}
	own, err := pidNamespace("self")
	ns, err2 := pidNamespace(strconv.Itoa(id.PID))
	switch {
	case err != nil:
		return false
	case err2 != nil:
		// Killed and gone between Dying's look and this read (a sandbox
		// member the kernel killed a moment after the look): look again.
		return exitingNow(id)
	case ns == own:
		return false
	}
	return backoff.Schedule{First: 50 * time.Microsecond, Max: 500 * time.Microsecond}.Poll(sandboxTeardown, func() bool { return Dying(id) })
}
