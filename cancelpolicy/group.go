package cancelpolicy

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// group is one command's process group and what was done to it. Cancel
// (from os/exec) and the context watch (from Start) may both stop it; the
// first stop signals, a later one reports the first one's result.
type group struct {
	cmd   *exec.Cmd
	sig   syscall.Signal // the graceful signal; 0: SIGKILL at once
	grace time.Duration

	mu          sync.Mutex
	pidfd       int  // Linux: the direct child's pidfd, or -1
	keep        bool // Start pinned the child: keep the pin until finish
	stopped     bool
	result      error // of the first stop
	interrupted bool  // the watch signalled a live group
	done        bool  // Wait returned
	timer       *time.Timer
}

func newGroup(cmd *exec.Cmd, cfg config) *group {
	g := &group{cmd: cmd, grace: cfg.grace, pidfd: -1}
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
	g.interrupted = watch && g.result == nil
	if g.result == nil && g.sig != 0 {
		// The pin, if any, stays until the SIGKILL.
		g.timer = time.AfterFunc(g.grace, g.kill)
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
	g.timer = nil
	if !g.keep || g.done {
		g.unpin()
	}
}

// finish records that Wait returned, releases the pin unless the graceful
// SIGKILL still needs it, and reports whether the watch interrupted the
// command.
func (g *group) finish() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	if g.timer == nil {
		g.unpin()
	}
	return g.interrupted
}
