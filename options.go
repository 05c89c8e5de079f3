package exectest

import (
	"fmt"
	"time"

	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/proctest"
	"go.uber.org/goleak"
)

// An Option configures [AssertCancel].
type Option interface{ applyAssert(*check.Config) }

type assertOption func(*check.Config)

func (f assertOption) applyAssert(c *check.Config) { f(c) }

// Within sets how soon after the cancel run must return (default
// 1s). Past it the check fails, kills the fixture's processes
// so that run can return, and reports who held the pipe.
func Within(bound time.Duration) Option {
	return assertOption(func(c *check.Config) {
		positive(&c.Errs, "exectest.Within: bound", bound, func() { c.Bound = bound })
	})
}

// CancelAfter cancels run's context d after run starts, whether or not the
// descendant has proved it runs yet: for hunting races with start-up.
func CancelAfter(d time.Duration) Option {
	return assertOption(func(c *check.Config) {
		if d < 0 {
			c.Errs = append(c.Errs, fmt.Sprintf("exectest.CancelAfter: delay: got %v, want >= 0", d))
			return
		}
		c.Mode, c.Delay = check.CancelAfter, d
	})
}

// CancelAfterRandom cancels run's context after a delay drawn uniformly
// from [min, max): run it with go test -count=N to hunt start-up races.
func CancelAfterRandom(min, max time.Duration) Option {
	return assertOption(func(c *check.Config) {
		if min < 0 || max <= min {
			c.Errs = append(c.Errs, fmt.Sprintf("exectest.CancelAfterRandom: range: got [%v, %v), want 0 <= min < max", min, max))
			return
		}
		c.Mode, c.Delay, c.UpTo = check.CancelAfterRandom, min, max
	})
}

// ProofTimeout sets how long to wait for the descendant's proof of life
// before the check skips (default 10s, capped by the
// test's deadline).
func ProofTimeout(d time.Duration) Option {
	return assertOption(func(c *check.Config) {
		positive(&c.Errs, "exectest.ProofTimeout", d, func() { c.ProofTimeout = d })
	})
}

// SettleTime sets how long the checks after run returns keep looking while
// goroutines end and killed processes are torn down (defaults:
// 1s for goroutines and descriptors, 500ms for processes).
// A leak costs the check this long; a clean run does not wait. Shorten it
// for stress runs of broken runners, never below what the machine needs
// to tear a process down.
func SettleTime(d time.Duration) Option {
	return assertOption(func(c *check.Config) {
		positive(&c.Errs, "exectest.SettleTime", d, func() { c.Settle = d })
	})
}

// WithoutGoroutineCheck switches off the check that no goroutine run
// started (os/exec's copy and watch goroutines, run's own) is left
// running after run returns.
func WithoutGoroutineCheck() Option {
	return assertOption(func(c *check.Config) { c.NoGoroutines = true })
}

// WithoutDescriptorCheck switches off the check that the test process
// holds no end of the command's stdin, stdout or stderr pipe after run
// returns.
func WithoutDescriptorCheck() Option {
	return assertOption(func(c *check.Config) { c.NoFDs = true })
}

// A DescendantOption configures [NewDescendant].
type DescendantOption interface{ applyDescendant(*check.FixtureConfig) }

type descendantOption func(*check.FixtureConfig)

func (f descendantOption) applyDescendant(c *check.FixtureConfig) { f(c) }

// Escaping makes the descendant leave its process group and session
// (setsid), as daemons do, before it proves it runs: a process-group kill
// no longer reaches it, so even [cancelpolicy.Apply] leaves it running.
// With the default bound (1 s) and the policy's default WaitDelay (2 s)
// that check fails as a hang naming the escapee; with a bound past the
// WaitDelay, as a survivor.
//
// [cancelpolicy.Apply]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Apply
func Escaping() DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) { c.Escape = true })
}

// Launcher makes the direct child start the descendant in the background
// and exit at once, as npm and mise shims and sh -c 'work &' do. os/exec
// never calls Cancel once the child has exited, so a Cancel that kills
// the group ([cancelpolicy.Apply]'s too) never runs; [cancelpolicy.Run]
// stops this shape. The descendant proves it runs once the child is
// reaped (docs/options.md says what a runner that never waits gets).
//
// [cancelpolicy.Apply]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Apply
// [cancelpolicy.Run]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Run
func Launcher() DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) { c.Shape.Launch = true })
}

// IgnoresTerm makes the descendant ignore SIGINT and SIGTERM before it
// proves it runs, as servers that stop gracefully on their own terms do: a
// runner that stops the tree with SIGINT or SIGTERM first must follow with
// SIGKILL to the whole group.
func IgnoresTerm() DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) { c.Shape.IgnoreTerm = true })
}

// JobControl makes the descendant lead a process group of its own in the
// command's session, as a shell with job control (set -m) starts a
// background job: a kill of the command's group misses it, and only a
// containment (a cgroup, a PID namespace) stops it. The shell shape needs
// bash(1), since dash has no job control without a terminal.
func JobControl() DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) { c.Shape.JobControl = true })
}

// DoubleFork makes the descendant a daemon: the direct child forks an
// intermediate, which forks the descendant into a session of its own
// (setsid) and exits, leaving it orphaned; the child itself goes on. The
// descendant proves it runs only once the intermediate is gone. Only a
// containment (a cgroup, a PID namespace) stops it. The shell shape needs
// setsid(1).
func DoubleFork() DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) { c.Shape.DoubleFork = true })
}

// Lifetime sets how long the descendant lives if nothing kills it (default
// 20s). A hung check costs the bound, not this.
func Lifetime(d time.Duration) DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) {
		positive(&c.Errs, "exectest.Lifetime", d, func() { c.Lifetime = d })
	})
}

// Hermetic selects the fixture shape that needs neither /bin/sh nor
// /bin/sleep: the test binary re-executes itself as the direct child and
// as the descendant. The test binary's TestMain must be [VerifyTestMain]
// (or call [github.com/exectest/exectest/fixtures.Dispatch] first).
func Hermetic() DescendantOption {
	return descendantOption(func(c *check.FixtureConfig) { c.Hermetic = true })
}

// positive calls set for d > 0, and otherwise records the bad input, to be
// reported when the options are used (an Option has no testing.TB).
func positive(errs *[]string, what string, d time.Duration, set func()) {
	if d <= 0 {
		*errs = append(*errs, fmt.Sprintf("%s: got %v, want > 0", what, d))
		return
	}
	set()
}

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
