package check

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
)

// What to change, one line each, by what a failure showed. They name the
// change in the code under test, not in the test, and each is a claim: a
// test applies exactly that change to a runner that fails with it and
// shows that the check then passes (fixlines_test.go; the table in
// docs/failures.md).
const (
	fixOwnGroup     = "fix: start the command in a process group of its own and kill that group on cancel: " + runInstead
	fixKillGroup    = "fix: kill the command's process group on cancel, not only its direct child: " + runInstead
	fixLauncher     = "fix: the command's direct child had exited when the cancel came, and os/exec calls Cancel only while it runs: " + runInstead + "; it kills the group also after the child exited"
	fixContain      = "fix: a descendant left the command's process group (setsid, a daemon, job control), so no group kill reaches it: contain the command in a cgroup of its own and kill that on cancel (Linux; root or a delegated cgroup): cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain())" + inPlace + ", or run it in a PID namespace that dies with the runner (bwrap --unshare-pid --die-with-parent)"
	fixWaitFirst    = "fix: run returned while the command's tree still ran and killed it only later: stop the tree before returning: " + runInstead
	fixEarly        = "fix: run returned before the cancel with the command still running: wait for it, and stop its tree on cancel: " + runInstead
	fixWait         = "fix: run gave up on the command without cmd.Wait: call it before returning; it ends os/exec's goroutines and closes the command's pipes"
	fixStopThenWait = "fix: run gave up on the command without cmd.Wait while the command's tree still ran, and a cmd.Wait then would wait as long as a process holding its output pipe lives: stop the tree first, then wait: " + runInstead
	fixSelfHolds    = "fix: close, in run, the write end of the pipe given to the command as soon as cmd.Start returns: while the test process holds it, the reader never sees EOF"
	fixCloseFDs     = "fix: close the ends of the command's pipes that run opened: cmd.Wait closes those of StdoutPipe, StderrPipe and StdinPipe, so call it, and close an os.Pipe end after cmd.Start"
)

// runInstead is the one change that stops a command's whole tree on
// cancel, for a command built either way: os/exec's Cancel needs
// exec.CommandContext, which is why cancelpolicy.Apply is advised nowhere.
const (
	runInstead = "cancelpolicy.Run(ctx, cmd)" + inPlace
	inPlace    = " in place of cmd.Run(), or of cmd.Start(), the kill and cmd.Wait() (cmd from exec.Command or exec.CommandContext)"
)

// How run was seen running the command (see copySample), where the fix
// lines' "cancelpolicy.Run(ctx, cmd) in place of cmd.Run(), or of
// cmd.Start(), the kill and cmd.Wait()", followed as written, would break
// it: Run in place of Output or CombinedOutput must keep what they
// returned; in place of a Start and a Wait of run's own, it would drop
// what run does between them (reads of the command's pipes would find
// them closed, writes to its stdin would come after it ended).
const (
	runsOutput         = "Output"
	runsCombinedOutput = "CombinedOutput"
	runsBetween        = "Start"
	// run runs the command with cancelpolicy already: a line that adds an
	// option says to add it to that call, which "in place of cmd.Run()"
	// would not (there is no cmd.Run() to replace).
	runsPolicyRun   = "cancelpolicy.Run"
	runsPolicyStart = "cancelpolicy.Start"
)

// inPlaceOf is inPlace for how run runs the command.
func inPlaceOf(call string) string {
	const built = "cmd from exec.Command or exec.CommandContext"
	switch call {
	case runsOutput:
		return " in place of cmd.Output(), with a bytes.Buffer set as cmd.Stdout before it, whose Bytes() are the output (and another as cmd.Stderr if the *exec.ExitError's Stderr was read; " + built + ")"
	case runsCombinedOutput:
		return " in place of cmd.CombinedOutput(), with one bytes.Buffer set as both cmd.Stdout and cmd.Stderr before it, whose Bytes() are the output (" + built + ")"
	case runsBetween:
		return " in place of cmd.Start(), and the Wait() of what it returns in place of cmd.Wait(), keeping what run does between them and dropping the kill (" + built + ")"
	}
	return inPlace
}

// forRunCall is msg, a failure's text, with each fix line's cancelpolicy
// call and what it replaces said for call, how run runs the command.
func forRunCall(msg, call string) string {
	switch call {
	case "":
		return msg
	case runsPolicyRun, runsPolicyStart:
		return withOptionsAdded(msg, call)
	}
	var b strings.Builder
	for {
		i := strings.Index(msg, inPlace)
		if i < 0 {
			break
		}
		head := msg[:i]
		if call == runsBetween {
			if j := strings.LastIndex(head, "cancelpolicy.Run("); j >= 0 {
				head = head[:j] + "cancelpolicy.Start(" + head[j+len("cancelpolicy.Run("):]
			}
		}
		b.WriteString(head + inPlaceOf(call))
		msg = msg[i+len(inPlace):]
	}
	return b.String() + msg
}

// withOptionsAdded is msg with each fix line's "cancelpolicy.Run(ctx,
// cmd, OPTIONS) in place of ..." said for run that already calls policy
// (cancelpolicy.Run or cancelpolicy.Start): add OPTIONS to that call. A
// line that names no option is left as it is.
func withOptionsAdded(msg, policy string) string {
	const call = "cancelpolicy.Run(ctx, cmd, "
	var b strings.Builder
	for {
		i := strings.Index(msg, inPlace)
		if i < 0 {
			break
		}
		head := msg[:i]
		j := strings.LastIndex(head, call)
		if j < 0 || !strings.HasSuffix(head, ")") {
			b.WriteString(head + inPlace)
		} else {
			opts := strings.TrimSuffix(head[j+len(call):], ")")
			b.WriteString(head[:j] + addOptions(policy, opts))
		}
		msg = msg[i+len(inPlace):]
	}
	return b.String() + msg
}

// addOptions says to add opts to the options of run's call to policy.
func addOptions(policy, opts string) string {
	what := "add " + opts + " to the options of the " + policy + " call that run makes"
	if strings.HasPrefix(opts, "cancelpolicy.Graceful(") {
		what += ", in place of a Graceful it has"
	}
	return what + ": " + policy + "(ctx, cmd, ..., " + opts + ")"
}

// fixKillCgroup is the fix where the command runs in a cgroup the code
// under test chose (dir) and a process that left its group outlived the
// cancel there: containing it again would change nothing.
func fixKillCgroup(dir string) string {
	return "fix: the command runs in a cgroup of its own, " + dir + ", but a descendant that left its process group outlived the cancel there: kill that cgroup on cancel (write 1 to its cgroup.kill), as cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain()) does"
}

// fixIgnored is the fix where the cancel's signal, sig, is one that a
// process of the command's group ignores: the signal alone never stops
// it, so a SIGKILL must follow, within the check's bound.
func fixIgnored(sig syscall.Signal, grace time.Duration) string {
	return fmt.Sprintf("fix: follow the cancel's %s with a SIGKILL to the command's group after a grace shorter than the check's bound: cancelpolicy.Run(ctx, cmd, cancelpolicy.Graceful(syscall.%s, %s))%s",
		proc.SignalName(sig), proc.SignalName(sig), goDuration(max(grace.Round(time.Millisecond), time.Millisecond)), inPlace)
}

// fixFor says what to change so that a cancel stops the processes ps,
// found alive where they should not be (holding the pipe past the bound,
// or surviving run's return), from where they stand toward the fixture
// child's process group and session, which cgroup they run in (chosen:
// see [proc.Tracker.CgroupChosen], read while they lived) and which
// signals they ignore.
func (c *check) fixFor(ps []described, s monitor.Snapshot, chosen func(pid int) string) string {
	child := s.Child
	own := false // some fixture process is still in the child's group
	for _, p := range ps {
		if p.role == monitor.TestProcess {
			return fixSelfHolds
		}
	}
	if jobsOnly {
		return fixJobFor(ps)
	}
	for _, p := range ps {
		// Still in the exited child's group, which nothing killed. The
		// portable mode may not have read the child's facts before it
		// exited (child.PID 0): the role alone says it was a launcher.
		if p.role == monitor.OrphanedDescendant && (p.PGID == child.PGID || child.PID == 0) {
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
	if why := c.ignoredCancel(ps, s); why != "" {
		return why
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

// ignoredCancel says, where the fixture child died of a signal that
// fixture processes among ps ignore, which signal, who ignores it and
// why, then the fix; "" otherwise. Only what was seen counts: the
// signal the child died of (a runner that signals the child alone leaves
// its group unsignalled, but the fix holds either way), and the SigIgn of
// the processes (which the portable mode cannot read: it says nothing).
// A signal that a process catches is not counted: every Go program
// catches SIGINT and SIGTERM in its runtime, and dies of them all the same.
func (c *check) ignoredCancel(ps []described, s monitor.Snapshot) string {
	sig := c.cancelSignal(s)
	if sig == 0 || sig == syscall.SIGKILL {
		return ""
	}
	var who []string
	var ignored proc.SignalSet
	for _, p := range ps {
		if p.role.Fixture() && p.ignoresKnown && p.ignores.Has(sig) {
			who = append(who, fmt.Sprintf("pid %d (%s)", p.PID, p.role.Noun()))
			ignored |= p.ignores
		}
	}
	if len(who) == 0 {
		return ""
	}
	name, they := proc.SignalName(sig), "it ignores"
	if len(who) > 1 {
		they = "they ignore"
	}
	why := "set to be ignored (trap '' in a shell, signal.Ignore in Go) by the process or an ancestor"
	if (sig == syscall.SIGINT || sig == syscall.SIGQUIT) && ignored.Has(syscall.SIGINT) && ignored.Has(syscall.SIGQUIT) {
		why = "as a background job of a non-interactive sh (sh -c 'cmd &') starts with SIGINT and SIGQUIT ignored"
	}
	return fmt.Sprintf("the cancel's signal is ignored: the fixture child died of %s, and no %s stops %s, sent to the group or not: %s %s (SigIgn), %s, and an ignored signal stays ignored across fork and exec\n%s",
		name, name, strings.Join(who, ", "), they, ignored.Names(syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM), why,
		fixIgnored(sig, c.cfg.Bound/2))
}

// cancelSignal is the signal the fixture child died of, where that can be
// told: by the kernel (see [procstate.Watch.End]), or by run's error when
// it is the child's own *exec.ExitError. 0 where it exited, or nothing
// tells.
func (c *check) cancelSignal(s monitor.Snapshot) syscall.Signal {
	if end, ok := s.ChildWatch.End(); ok {
		if end.Exited {
			return 0
		}
		return end.Signal
	}
	var ee *exec.ExitError
	if s.Child.PID == 0 || !errors.As(c.out.err, &ee) || ee.Pid() != s.Child.PID {
		return 0
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

// fixSurvivors says what to change for processes that survived run's
// return: run returned first, or killed them only after it returned, or
// its kill did not reach them.
func (c *check) fixSurvivors(s monitor.Snapshot) string {
	if c.early {
		return fixEarly
	}
	for _, p := range c.atReturn {
		if !(proc.Identity{PID: p.PID, Start: p.Start}).Alive() {
			return fixWaitFirst // not being killed when run returned, dead now
		}
	}
	return c.fixFor(c.survivors, s, c.d.tracker.CgroupChosen)
}

// fixLeaks says what to change for goroutines or descriptors run left
// behind: call cmd.Wait; but where run returned before the cancel, a Wait
// alone would not stop the tree on cancel, and where the tree still ran
// when run returned, a Wait would wait for it: stop it first.
func (c *check) fixLeaks(goroutines bool) string {
	switch {
	case c.early:
		return fixEarly
	case len(c.atReturn) > 0:
		return fixStopThenWait
	case goroutines:
		return fixWait
	}
	return fixCloseFDs
}

// What to change where the descendant never proved it runs. Most are
// fixes of where the command runs, not of the runner: the line says so by
// naming the place (a sandbox's /proc, /dev, /bin/sleep, TMPDIR).
const (
	fixMountProc     = "fix: mount /proc where the command runs (bwrap: --proc /proc)"
	fixDev           = "fix: give the command a /dev where it runs (bwrap: --dev /dev)"
	fixSleep         = "fix: make /bin/sleep a working sleep where the command runs (bind it with its libraries), or use exectest.Hermetic(), which needs no /bin/sleep"
	fixShape         = "fix: let the command's tree take the fixture's shape where it runs (see what the fixture reported above), or check it with a NewDescendant option it allows"
	fixPortablePIDNS = "fix: the portable mode follows only processes below the test process in its own PID namespace, and the command runs in another (a sandbox's --unshare-pid): check this in the Linux mode (on Linux, unset " + proc.PortableEnv + "), or run the command in the test's PID namespace"
	fixStartArgv     = "fix: run must start d.Argv() (or d.Script()) under ctx and return only when the command is done"
	fixReport        = "fix: make the descendant run where the command runs: see what the fixture reported above"
)

// fixNotStarted is the fix where run returned err before any cancel and
// before any process of the command reported, and err carries no exit
// status (the command did not run to an exit that run saw): run's start
// of the command failed, and err says why, or why not.
func fixNotStarted(err error) string {
	return fmt.Sprintf("fix: the command did not start: run returned err = %q before any cancel, with no exit status, and no process of the command ever reported: fix what the error says, so that run starts d.Argv() (or d.Script()) under ctx and returns only when the command is done", err.Error())
}

// exitStatusIn says err's text holds an exit status as os/exec words it
// ("exit status 1", "signal: killed"): an *exec.ExitError that run
// wrapped with %v, of a command that did run.
func exitStatusIn(err error) bool {
	return strings.Contains(err.Error(), "exit status ") || strings.Contains(err.Error(), "signal: ")
}

// fixReach is the fix where the command ran but could not reach the
// fixture's folder dir.
func fixReach(dir string) string {
	return "fix: let the command reach the fixture's folder " + dir + ": run it where that path is visible and writable to it, or set TMPDIR to a folder it can see"
}

// fixUnproved says what to change where the descendant never proved it
// runs, from what the fixture reported of itself, what run's error told
// of a command that ran without a report, and the error of a run that
// returned before any cancel, earlyErr (nil otherwise).
func fixUnproved(s monitor.Snapshot, ran string, dir string, earlyErr error) string {
	said := strings.Join(s.Failures, "\n") + "\n" + ran
	switch {
	case strings.Contains(said, "/proc"):
		return fixMountProc
	case strings.Contains(said, "/dev/null"):
		return fixDev
	case strings.Contains(said, "/bin/sleep"):
		return fixSleep
	case strings.Contains(said, monitor.NotInShapeText):
		return fixShape
	case strings.Contains(said, monitor.NotBelowTestText):
		return fixPortablePIDNS
	case ran != "":
		return fixReach(dir)
	case s.Started == 0 && earlyErr != nil && !exitStatusIn(earlyErr):
		return fixNotStarted(earlyErr)
	case s.Started == 0:
		return fixStartArgv
	}
	return fixReport
}
