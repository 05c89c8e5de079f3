package exectest

import (
	"fmt"
	"time"
)

// An Option configures [AssertCancel].
type Option interface{ applyAssert(*assertConfig) }

type assertOption func(*assertConfig)

func (f assertOption) applyAssert(c *assertConfig) { f(c) }

type cancelMode int

const (
	cancelWhenAlive cancelMode = iota
	cancelAfter
	cancelAfterRandom
)

type assertConfig struct {
	settle       time.Duration // 0: the defaults
	noGoroutines bool
	noFDs        bool
	bound        time.Duration
	mode         cancelMode
	delay, upTo  time.Duration
	proofTimeout time.Duration
	errs         []string
}

func newAssertConfig(opts []Option) assertConfig {
	c := assertConfig{bound: defaultBound, proofTimeout: defaultProofTimeout}
	for _, o := range opts {
		if o != nil {
			o.applyAssert(&c)
		}
	}
	return c
}

// defaultBound is how soon after cancel run must return unless [Within]
// says otherwise.
const defaultBound = time.Second

// defaultProofTimeout is how long [AssertCancel] waits for the descendant's
// proof of life unless [ProofTimeout] says otherwise.
const defaultProofTimeout = 10 * time.Second

// Within sets how soon after the cancel run must return (default
// 1s). Past it the check fails, kills the fixture's processes
// so that run can return, and reports who held the pipe.
func Within(bound time.Duration) Option {
	return assertOption(func(c *assertConfig) {
		positive(&c.errs, "exectest.Within: bound", bound, func() { c.bound = bound })
	})
}

// CancelAfter cancels run's context d after run starts, whether or not the
// descendant has proved it runs yet: for hunting races with start-up.
func CancelAfter(d time.Duration) Option {
	return assertOption(func(c *assertConfig) {
		if d < 0 {
			c.errs = append(c.errs, fmt.Sprintf("exectest.CancelAfter: delay: got %v, want >= 0", d))
			return
		}
		c.mode, c.delay = cancelAfter, d
	})
}

// CancelAfterRandom cancels run's context after a delay drawn uniformly
// from [min, max): run it with go test -count=N to hunt start-up races.
func CancelAfterRandom(min, max time.Duration) Option {
	return assertOption(func(c *assertConfig) {
		if min < 0 || max <= min {
			c.errs = append(c.errs, fmt.Sprintf("exectest.CancelAfterRandom: range: got [%v, %v), want 0 <= min < max", min, max))
			return
		}
		c.mode, c.delay, c.upTo = cancelAfterRandom, min, max
	})
}

// ProofTimeout sets how long to wait for the descendant's proof of life
// before the check skips (default 10s, capped by the
// test's deadline).
func ProofTimeout(d time.Duration) Option {
	return assertOption(func(c *assertConfig) {
		positive(&c.errs, "exectest.ProofTimeout", d, func() { c.proofTimeout = d })
	})
}

// SettleTime sets how long the checks after run returns keep looking while
// goroutines end and killed processes are torn down (defaults:
// 1s for goroutines and descriptors, 500ms for processes).
// A leak costs the check this long; a clean run does not wait. Shorten it
// for stress runs of broken runners, never below what the machine needs
// to tear a process down.
func SettleTime(d time.Duration) Option {
	return assertOption(func(c *assertConfig) {
		positive(&c.errs, "exectest.SettleTime", d, func() { c.settle = d })
	})
}

// WithoutGoroutineCheck switches off the check that no goroutine run
// started (os/exec's copy and watch goroutines, run's own) is left
// running after run returns.
func WithoutGoroutineCheck() Option {
	return assertOption(func(c *assertConfig) { c.noGoroutines = true })
}

// WithoutDescriptorCheck switches off the check that the test process
// holds no end of the command's stdin, stdout or stderr pipe after run
// returns.
func WithoutDescriptorCheck() Option {
	return assertOption(func(c *assertConfig) { c.noFDs = true })
}
