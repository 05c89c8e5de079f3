package exectest

import (
	"fmt"

	"github.com/exectest/exectest/proctest"
	"go.uber.org/goleak"
)

// A MainOption configures [VerifyTestMain].
type MainOption interface{ applyMain(*mainConfig) }

type mainOptionFunc func(*mainConfig)

func (f mainOptionFunc) applyMain(c *mainConfig) { f(c) }

type mainConfig struct {
	goroutines []goleak.Option
	processes  []proctest.Option
	cleanups   []func(exitCode int)
	errs       []string // bad input, reported before any test runs
}

func newMainConfig(opts []MainOption) mainConfig {
	var c mainConfig
	for _, o := range opts {
		if o == nil {
			c.errs = append(c.errs, "exectest.VerifyTestMain: option: got nil, want a MainOption such as exectest.IgnoreTopFunction")
			continue
		}
		o.applyMain(&c)
	}
	return c
}

// cleanup runs the [Cleanup] functions, in order, with the exit code, and
// returns it.
func (c mainConfig) cleanup(code int) int {
	for _, f := range c.cleanups {
		f(code)
	}
	return code
}

// IgnoreTopFunction ignores, in the check for goroutines left running, a
// goroutine whose stack has f at the top, as goleak's option of that name
// does: f is a function's full name ("pkg/path.Func", "pkg/path.(*T).Method").
func IgnoreTopFunction(f string) MainOption {
	return mainOptionFunc(func(c *mainConfig) {
		if functionName(&c.errs, "exectest.IgnoreTopFunction", f) {
			c.goroutines = append(c.goroutines, goleak.IgnoreTopFunction(f))
		}
	})
}

// IgnoreAnyFunction ignores, in the check for goroutines left running, a
// goroutine with f anywhere in its stack, as goleak's option of that name
// does.
func IgnoreAnyFunction(f string) MainOption {
	return mainOptionFunc(func(c *mainConfig) {
		if functionName(&c.errs, "exectest.IgnoreAnyFunction", f) {
			c.goroutines = append(c.goroutines, goleak.IgnoreAnyFunction(f))
		}
	})
}

// functionName records f as bad input unless it names a function.
func functionName(errs *[]string, what, f string) bool {
	if f == "" {
		*errs = append(*errs, fmt.Sprintf("%s: f: got \"\", want a function's full name, such as \"net/http.(*Server).Serve\"", what))
		return false
	}
	return true
}

// IgnoreProcess ignores, in the check for processes left running, the
// processes for which f returns true (see [proctest.IgnoreProcess]).
func IgnoreProcess(f func(proctest.Process) bool) MainOption {
	return mainOptionFunc(func(c *mainConfig) {
		if f == nil {
			c.errs = append(c.errs, "exectest.IgnoreProcess: f: got nil, want a func(proctest.Process) bool")
			return
		}
		c.processes = append(c.processes, proctest.IgnoreProcess(f))
	})
}

// Cleanup runs f after the tests and the checks, with the code the test
// binary is about to exit with, as goleak's option of that name does: for
// what the TestMain set up before VerifyTestMain. Each Cleanup given runs,
// in order.
func Cleanup(f func(exitCode int)) MainOption {
	return mainOptionFunc(func(c *mainConfig) {
		if f == nil {
			c.errs = append(c.errs, "exectest.Cleanup: f: got nil, want a func(exitCode int)")
			return
		}
		c.cleanups = append(c.cleanups, f)
	})
}
