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
// sig dies by the SIGKILL. sig must be a [syscall.Signal] other than
// SIGKILL, and grace > 0 and shorter than the WaitDelay. Not supported on
// Windows (an error there).
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
