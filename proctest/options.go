package proctest

import (
	"time"

	"github.com/exectest/exectest/internal/proc"
)

// An Option changes what [Find], [VerifyNone] and [VerifyTestMain] accept.
type Option interface{ apply(*verifyConfig) }

type optionFunc func(*verifyConfig)

func (f optionFunc) apply(c *verifyConfig) { f(c) }

type verifyConfig struct {
	ignore  []func(Process) bool
	maxWait time.Duration
}

// defaultMaxWait is how long [Find] keeps looking while processes exit.
const defaultMaxWait = time.Second

func newVerifyConfig(opts []Option) verifyConfig {
	c := verifyConfig{maxWait: defaultMaxWait}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c
}

// IgnoreCurrent ignores every process below the test process now, when
// the option is made: pass it where the test starts (defer evaluates it
// there).
func IgnoreCurrent() Option {
	base := map[proc.Identity]bool{}
	for _, id := range proc.LiveDescendants() {
		base[id] = true
	}
	return IgnoreProcess(func(p Process) bool { return base[proc.Facts(p).ID()] })
}

// IgnoreProcess ignores the processes for which f returns true.
func IgnoreProcess(f func(Process) bool) Option {
	return optionFunc(func(c *verifyConfig) { c.ignore = append(c.ignore, f) })
}

// MaxWait sets how long [Find] keeps looking while processes exit (default 1s): the kernel tears processes down asynchronously, so a
// process killed just before the check may still be listed for a moment.
func MaxWait(d time.Duration) Option {
	return optionFunc(func(c *verifyConfig) { c.maxWait = d })
}
