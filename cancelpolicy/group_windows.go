package cancelpolicy

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setGroup: Windows has no process groups to signal; the direct child is
// all a cancel reaches.
func setGroup(*exec.Cmd) {}

func checkGraceful(os.Signal) error {
	return errors.New("cancelpolicy.Graceful: not supported on windows: a process there can only be terminated")
}

func (g *group) pin(started bool) {}

func (g *group) unpin() {}

// signal terminates the direct child (sig is always SIGKILL here).
func (g *group) signal(syscall.Signal) error { return g.cmd.Process.Kill() }

// empty: there is no graceful stop on Windows to wait out.
func (g *group) empty() bool { return false }
