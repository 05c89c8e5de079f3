package exectest

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A DescendantOption configures [NewDescendant].
type DescendantOption interface{ applyDescendant(*descendantConfig) }

type descendantOption func(*descendantConfig)

func (f descendantOption) applyDescendant(c *descendantConfig) { f(c) }

type descendantConfig struct {
	lifetime time.Duration
	escape   bool
	shape    shapeConfig
	hermetic bool
	errs     []string
}

// defaultLifetime is how long the descendant lives if nothing kills it,
// unless [Lifetime] says otherwise.
const defaultLifetime = 20 * time.Second

// Escaping makes the descendant leave its process group and session
// (setsid), as daemons do, before it proves it runs: a process-group kill
// no longer reaches it, so even [cancelpolicy.Apply] leaves it running.
// With the default bound (1 s) and the policy's default WaitDelay (2 s)
// that check fails as a hang naming the escapee; with a bound past the
// WaitDelay, as a survivor.
//
// [cancelpolicy.Apply]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Apply
func Escaping() DescendantOption {
	return descendantOption(func(c *descendantConfig) { c.escape = true })
}

// shapeConfig holds the tree shapes besides the default and [Escaping].
type shapeConfig struct {
	launch, ignoreTerm, jobControl, doubleFork bool
}

// checkShapes records the tree shapes that cannot be combined: each of
// them says where the descendant stands toward the child, and it stands in
// one place. IgnoresTerm combines with any.
func (c *descendantConfig) checkShapes() {
	var got []string
	for name, on := range map[string]bool{"Escaping": c.escape, "Launcher": c.shape.launch, "JobControl": c.shape.jobControl, "DoubleFork": c.shape.doubleFork} {
		if on {
			got = append(got, "exectest."+name+"()")
		}
	}
	if len(got) > 1 {
		slices.Sort(got)
		c.errs = append(c.errs, fmt.Sprintf("exectest.NewDescendant: tree shapes: got %s, want at most one of Escaping, Launcher, JobControl and DoubleFork", strings.Join(got, " and ")))
	}
}

// Launcher makes the direct child start the descendant in the background
// and exit at once, as npm and mise shims, wrappers and sh -c 'work &'
// do. os/exec reaps the child and then never calls Cancel (the process
// already exited), so a Cancel that kills the group, [cancelpolicy.Apply]'s
// included, never runs: run returns only when WaitDelay closes the pipe,
// or never. [cancelpolicy.Run] stops this shape.
//
// The descendant proves it runs only once the child has exited and been
// reaped: before the reap os/exec may still call Cancel, which would make
// a pass of a runner that stops this shape only by chance. A runner that
// never calls cmd.Wait never reaps the child, so the descendant never
// proves it runs: after [ProofTimeout] the check cancels anyway, and
// fails on what run left behind (os/exec's goroutines, the pipe, the
// fixture's processes), or else skips as vacuous.
//
// [cancelpolicy.Apply]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Apply
// [cancelpolicy.Run]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Run
func Launcher() DescendantOption {
	return descendantOption(func(c *descendantConfig) { c.shape.launch = true })
}

// IgnoresTerm makes the descendant ignore SIGINT and SIGTERM before it
// proves it runs, as servers that stop gracefully on their own terms do: a
// runner that stops the tree with SIGINT or SIGTERM first must follow with
// SIGKILL to the whole group.
func IgnoresTerm() DescendantOption {
	return descendantOption(func(c *descendantConfig) { c.shape.ignoreTerm = true })
}

// JobControl makes the descendant lead a process group of its own in the
// command's session, as a shell with job control (set -m) starts a
// background job: a kill of the command's group misses it, and only a
// containment (a cgroup, a PID namespace) stops it. The shell shape needs
// bash(1), since dash has no job control without a terminal.
func JobControl() DescendantOption {
	return descendantOption(func(c *descendantConfig) { c.shape.jobControl = true })
}

// DoubleFork makes the descendant a daemon: the direct child forks an
// intermediate, which forks the descendant into a session of its own
// (setsid) and exits, leaving it orphaned; the child itself goes on. The
// descendant proves it runs only once the intermediate is gone. Only a
// containment (a cgroup, a PID namespace) stops it. The shell shape needs
// setsid(1).
func DoubleFork() DescendantOption {
	return descendantOption(func(c *descendantConfig) { c.shape.doubleFork = true })
}

// Lifetime sets how long the descendant lives if nothing kills it (default
// 20s). A hung check costs the bound, not this.
func Lifetime(d time.Duration) DescendantOption {
	return descendantOption(func(c *descendantConfig) {
		positive(&c.errs, "exectest.Lifetime", d, func() { c.lifetime = d })
	})
}

// Hermetic selects the fixture shape that needs neither /bin/sh nor
// /bin/sleep: the test binary re-executes itself as the direct child and
// as the descendant. The test binary's TestMain must be [VerifyTestMain]
// (or call [github.com/exectest/exectest/fixtures.Dispatch] first).
func Hermetic() DescendantOption {
	return descendantOption(func(c *descendantConfig) { c.hermetic = true })
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
