package cancelpolicy

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// group is one command's process group (on Windows, its Job Object) and
// what was done to it. Cancel (from os/exec) and the context watch (from
// Start) may both stop it; the first stop signals, a later one reports the
// first one's result.
type group struct {
	cmd     *exec.Cmd
	sig     syscall.Signal // the graceful signal; 0: SIGKILL at once
	grace   time.Duration
	contain bool // Contain was given

	cg          *cgroup // with Contain on Linux: the command's cgroup, else nil
	mu          sync.Mutex
	sys         groupSys // Unix: the child's pidfd (Linux); Windows: the Job Object
	releaseErr  error    // Windows: what went wrong ending the job at Wait
	keep        bool     // Start pinned the child: keep the pin until finish
	stopped     bool
	result      error // of the first stop
	interrupted bool  // the watch signalled a live group
	done        bool  // Wait returned
	timer       *time.Timer
	graceEnd    time.Time // when timer fires
}

func newGroup(cmd *exec.Cmd, cfg config) *group {
	g := &group{cmd: cmd, grace: cfg.grace, contain: cfg.contain, sys: newGroupSys()}
	if s, ok := cfg.sig.(syscall.Signal); ok {
		g.sig = s
	}
	return g
}

// cancel is the command's Cancel.
func (g *group) cancel() error { return g.stop(false) }

// watch runs when Start's context is done.
func (g *group) watch() { g.stop(true) }

func (g *group) stop(watch bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return g.result
	}
	if g.done {
		return os.ErrProcessDone
	}
	g.stopped = true
	if !g.keep {
		g.pin(false)
	}
	first := syscall.SIGKILL
	if g.sig != 0 {
		first = g.sig
	}
	g.result = g.signal(first)
	contained := false
	if g.cg != nil && (g.sig == 0 || errors.Is(g.result, os.ErrProcessDone)) {
		// No graceful stop to wait for: none was asked, or no member is
		// left in the group to get it.
		g.result, contained = g.killCgroup(g.result)
	}
	g.interrupted = watch && g.result == nil
	if g.result == nil && g.sig != 0 && !contained {
		// The pin, if any, stays until the SIGKILL.
		g.timer = time.AfterFunc(g.grace, g.kill)
		g.graceEnd = time.Now().Add(g.grace)
		return nil
	}
	if !g.keep {
		g.unpin()
	}
	return g.result
}

// kill is the SIGKILL after the grace; it is sent also when Wait has
// returned meanwhile: a member that ignored the first signal and holds no
// pipe would outlive the Wait otherwise.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.signal(syscall.SIGKILL) // a group gone (ESRCH) is the goal
	if g.cg != nil {
		_ = g.cg.kill() // a cgroup already removed by Wait is the goal too
	}
	g.timer = nil
	if !g.keep || g.done {
		g.unpin()
	}
}

// killCgroup kills the command's cgroup after the group was signalled
// (groupErr): if it held a live process, the command was stopped
// whatever the group signal found, and contained says so.
func (g *group) killCgroup(groupErr error) (err error, contained bool) {
	if !g.cg.populated() {
		return groupErr, false
	}
	if err := g.cg.kill(); err != nil {
		return errors.Join(groupErr, err), false
	}
	return nil, true
}

// finish records that Wait returned, releases the pin unless the graceful
// SIGKILL still needs it, and reports whether the watch interrupted the
// command. During a graceful stop it first waits until the group (and the
// cgroup, with Contain) has no member left or the SIGKILL has been sent:
// a member that ignores the first signal and holds none of the command's
// pipes does not keep os/exec's Wait waiting, and would outlive the
// command's Wait otherwise. With Contain it then removes the cgroup. On
// Windows the pin is the Job Object: releasing it leaves the tree running
// or, with Contain, terminates it; err says what went wrong doing so.
func (g *group) finish() (interrupted bool, err error) {
	g.mu.Lock()
	g.done = true
	if g.timer == nil {
		g.unpin()
	}
	interrupted, cg, releaseErr := g.interrupted, g.cg, g.releaseErr
	graceLeft := time.Duration(0)
	if g.timer != nil {
		graceLeft = time.Until(g.graceEnd)
	}
	g.mu.Unlock()
	if graceLeft > 0 {
		// Past the grace the timer is due: the margin is for a loaded
		// machine that runs it late.
		pollUntil(graceLeft+graceMargin, func() bool {
			g.mu.Lock()
			defer g.mu.Unlock()
			if cg != nil { // it holds the group, and what left it
				return g.timer == nil || !cg.populated()
			}
			return g.timer == nil || g.empty()
		})
	}
	if cg == nil {
		return interrupted, releaseErr
	}
	return interrupted, cg.remove()
}

// graceMargin bounds how long Wait waits for the graceful SIGKILL past
// the grace itself.
const graceMargin = time.Second

// pollUntil looks at done with a short capped backoff until it holds or
// limit has passed.
func pollUntil(limit time.Duration, done func() bool) bool {
	end := time.Now().Add(limit)
	for wait := 100 * time.Microsecond; ; wait = min(2*wait, 20*time.Millisecond) {
		if done() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(wait)
	}
}
