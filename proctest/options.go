package proctest

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/proc"
)

// An Option changes what [Find] and [VerifyNone] accept.
type Option interface{ apply(*verifyConfig) }

type optionFunc func(*verifyConfig)

func (f optionFunc) apply(c *verifyConfig) { f(c) }

type verifyConfig struct {
	ignore  []func(Process) bool
	maxWait time.Duration
	errs    []string // bad input, reported where the options are used
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
	return optionFunc(func(c *verifyConfig) {
		if f == nil {
			c.errs = append(c.errs, "proctest.IgnoreProcess: f: got nil, want a func(Process) bool")
			return
		}
		c.ignore = append(c.ignore, f)
	})
}

// MaxWait sets how long [Find] keeps looking while processes exit (default 1s): the kernel tears processes down asynchronously, so a
// process killed just before the check may still be listed for a moment.
// d must be > 0: the check reports it otherwise.
func MaxWait(d time.Duration) Option {
	return optionFunc(func(c *verifyConfig) {
		if d <= 0 {
			c.errs = append(c.errs, fmt.Sprintf("proctest.MaxWait: got %v, want > 0", d))
			return
		}
		c.maxWait = d
	})
}

// err is the bad input among the options, or nil.
func (c verifyConfig) err() error {
	errs := c.errs
	// A bad value chose the Linux mode, which may not be the one meant.
	if _, err := envswitch.Bool(proc.PortableEnv); err != nil {
		errs = append(errs, "proctest: "+err.Error())
	}
	// Where gopsutil cannot list processes (NetBSD), finding none would
	// be a pass that checked nothing: say so instead.
	if err := proc.Listable(); err != nil {
		errs = append(errs, "proctest: cannot list processes here: "+err.Error())
	}
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "\n"))
}
