package cancelpolicy

import (
	"fmt"
	"os"
	"time"
)

// An Option configures [Apply], [Start] and [Run].
type Option interface{ apply(*config) }

type option func(*config)

func (f option) apply(c *config) { f(c) }

type config struct {
	waitDelay time.Duration // set by WaitDelay; 0: not given
	sig       os.Signal     // set by Graceful; nil: SIGKILL at once
	grace     time.Duration
	contain   bool // set by Contain
	errs      []error
}

// DefaultWaitDelay is the backstop set when the command has no WaitDelay
// and [WaitDelay] is not given; with [Graceful] the grace is added to it.
const DefaultWaitDelay = 2 * time.Second

// WaitDelay sets the command's WaitDelay: how long Wait waits for the
// output pipes to close after the command exits or is cancelled before it
// closes them itself. d must be > 0, and longer than the grace of
// [Graceful]: without a backstop one descendant that left the group makes
// Wait last as long as that descendant.
func WaitDelay(d time.Duration) Option {
	return option(func(c *config) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Errorf("cancelpolicy.WaitDelay: got %v, want > 0", d))
			return
		}
		c.waitDelay = d
	})
}

// Graceful makes a cancel send sig to the group first, and SIGKILL to the
// group grace later if a member is still there; runners that let a program
// clean up send [os.Interrupt] or [syscall.SIGTERM]. A member that ignores
// sig (a background job of a non-interactive sh ignores SIGINT and
// SIGQUIT) dies by the SIGKILL, and [Started.Wait] returns only once the
// group has no member left or the SIGKILL has been sent, also where that
// member holds none of the command's pipes. sig must be a [syscall.Signal] other than
// SIGKILL, and grace > 0 and shorter than the WaitDelay. On Windows it is
// an error: a process there can only be terminated (see the package
// documentation).
func Graceful(sig os.Signal, grace time.Duration) Option {
	return option(func(c *config) {
		if err := checkGraceful(sig); err != nil {
			c.errs = append(c.errs, err)
			return
		}
		if grace <= 0 {
			c.errs = append(c.errs, fmt.Errorf("cancelpolicy.Graceful: grace: got %v, want > 0", grace))
			return
		}
		c.sig, c.grace = sig, grace
	})
}

// Contain makes [Start] and [Run] start the command in a cgroup v2 of its
// own, made under the caller's cgroup, so that a cancel stops every
// process of the tree: also those that left the process group (setsid,
// double-fork daemons, job control with set -m), which no group signal
// reaches. The cgroup lives as long as the command: when [Started.Wait]
// returns, whatever is left in it has been killed and the cgroup removed,
// whether the context was cancelled or not.
//
// The child starts inside the cgroup (clone3 with CLONE_INTO_CGROUP,
// Linux 5.7), so no descendant can fork before it is contained, and the
// cgroup is killed through cgroup.kill (Linux 5.14). Making the cgroup
// needs write access to the caller's own cgroup: root, or a cgroup
// delegated to the caller (systemd's Delegate=yes). Where that is missing,
// or off Linux, Start returns an error that says so and starts nothing.
// [Apply] cannot contain (it has no Wait of its own in which to remove the
// cgroup): with Contain it returns an error.
//
// With [Graceful], the first signal reaches the process group, as without
// Contain; the SIGKILL after the grace reaches the whole cgroup, and Wait
// gives the members that left the group up to the grace to exit.
//
// On Windows, Start and Run hold the whole tree in a Job Object anyway
// (see the package documentation), and Contain is accepted: it makes Wait
// terminate what is left in the job, and wait until it is empty, where a
// command that finished by itself would otherwise leave it running.
func Contain() Option {
	return option(func(c *config) { c.contain = true })
}
