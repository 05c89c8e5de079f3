package exectest

import (
	"strings"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/role"
)

// What to change, one line each, by what a failure showed. They name the
// change in the code under test, not in the test.
const (
	fixOwnGroup  = "fix: start the command in a process group of its own and kill that group on cancel: cancelpolicy.Apply(cmd) (Setpgid, a Cancel that sends SIGKILL to the group, WaitDelay)"
	fixKillGroup = "fix: kill the group on cancel, not only the child: cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) } (cancelpolicy.Apply does it)"
	fixLauncher  = "fix: the command's direct child had exited when the cancel came, and os/exec calls Cancel only while it runs: run it with cancelpolicy.Run(ctx, cmd) (or cancelpolicy.Start), which gives it a group of its own and kills that group also after the child exited"
	fixContain   = "fix: a descendant left the command's process group (setsid, a daemon, job control), so no group kill reaches it: contain the command in a cgroup of its own and kill that on cancel: cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain()) (Linux; root or a delegated cgroup), or run it in a PID namespace that dies with the runner (bwrap --unshare-pid --die-with-parent)"
	fixWaitFirst = "fix: run returned while the command's tree still ran and killed it only later: stop the tree before returning (cancel, then cmd.Wait, with a Cancel that kills the group)"
	fixEarly     = "fix: run returned before the cancel with the command still running: wait for the command (cmd.Wait) and stop its whole tree on cancel"
	fixWait      = "fix: run gave up on the command without cmd.Wait: call it before returning; it ends os/exec's goroutines and closes the command's pipes"
	fixSelfHolds = "fix: close, in run, the write end of the pipe given to the command as soon as cmd.Start returns: while the test process holds it, the reader never sees EOF"
	fixCloseFDs  = "fix: close the ends of the command's pipes that run opened: cmd.Wait closes those of StdoutPipe, StderrPipe and StdinPipe, so call it, and close an os.Pipe end after cmd.Start"
)

// fixKillCgroup is the fix where the command runs in a cgroup the code
// under test chose (dir) and a process that left its group outlived the
// cancel there: containing it again would change nothing.
func fixKillCgroup(dir string) string {
	return "fix: the command runs in a cgroup of its own, " + dir + ", but a descendant that left its process group outlived the cancel there: kill that cgroup on cancel (write 1 to its cgroup.kill), as cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain()) does"
}

// fixFor says what to change so that a cancel stops the processes ps,
// found alive where they should not be (holding the pipe past the bound,
// or surviving run's return), from where they stand toward the fixture
// child's process group and session, and which cgroup they run in
// (chosen: see [proc.Tracker.CgroupChosen]). Call it while they live.
func fixFor(ps []described, s snapshot, chosen func(pid int) string) string {
	child := s.child
	own := false // some fixture process is still in the child's group
	for _, p := range ps {
		if p.role == role.TestProcess {
			return fixSelfHolds
		}
	}
	for _, p := range ps {
		// Still in the exited child's group, which nothing killed. The
		// portable mode may not have read the child's facts before it
		// exited (child.PID 0): the role alone says it was a launcher.
		if p.role == role.OrphanedDescendant && (p.PGID == child.PGID || child.PID == 0) {
			return fixLauncher
		}
	}
	for _, p := range ps {
		switch {
		case !p.role.Fixture():
		case child.PID == 0:
		case p.SID != child.SID || p.PGID != child.PGID:
			if dir := chosen(p.PID); dir != "" {
				return fixKillCgroup(dir)
			}
			return fixContain
		default:
			own = true
		}
	}
	if !own {
		return fixOwnGroup
	}
	if child.PGID == getpgrp() || child.PGID != child.PID {
		// The group is the test's own (no Setpgid), or one the child
		// merely joined: it cannot be killed as a whole.
		return fixOwnGroup
	}
	return fixKillGroup
}

// fixSurvivors says what to change for processes that survived run's
// return: run returned first, or killed them only after it returned, or
// its kill did not reach them.
func (c *check) fixSurvivors(s snapshot) string {
	if c.early {
		return fixEarly
	}
	for _, p := range c.atReturn {
		if !(proc.Identity{PID: p.PID, Start: p.Start}).Alive() {
			return fixWaitFirst // not being killed when run returned, dead now
		}
	}
	return fixFor(c.survivors, s, c.d.tracker.CgroupChosen)
}

// fixUnproved says what to change where the descendant never proved it
// runs, from what the fixture reported of itself and what run's error
// told of a command that ran without a report.
func fixUnproved(s snapshot, ran string, dir string) string {
	said := strings.Join(s.failures, "\n") + "\n" + ran
	switch {
	case strings.Contains(said, "/proc"):
		return "fix: mount /proc where the command runs (bwrap: --proc /proc)"
	case strings.Contains(said, "/dev/null"):
		return "fix: give the command a /dev where it runs (bwrap: --dev /dev)"
	case strings.Contains(said, "/bin/sleep"):
		return "fix: make /bin/sleep a working sleep where the command runs (bind it with its libraries), or use exectest.Hermetic(), which needs no /bin/sleep"
	case strings.Contains(said, notInShapeText):
		return "fix: let the command's tree take the fixture's shape where it runs (see what the fixture reported above), or check it with a NewDescendant option it allows"
	case strings.Contains(said, notBelowTestText):
		return "fix: the portable mode follows only processes below the test process in its own PID namespace, and the command runs in another (a sandbox's --unshare-pid): check this in the Linux mode (on Linux, unset " + proc.PortableEnv + "), or run the command in the test's PID namespace"
	case ran != "":
		return "fix: let the command reach the fixture's folder " + dir + ": run it where that path is visible and writable to it, or set TMPDIR to a folder it can see"
	case s.started == 0:
		return "fix: run must start d.Argv() (or d.Script()) under ctx and return only when the command is done"
	}
	return "fix: make the descendant run where the command runs: see what the fixture reported above"
}
