// Package cancelpolicy makes cancelling an [exec.Cmd]'s context stop the
// whole process tree the command starts, in bounded time. It is meant for
// production exec sites: it imports only the standard library and
// golang.org/x/sys.
//
// Two entry points:
//
//   - [Run] (in place of cmd.Run), and [Start] with [Started.Wait] (in
//     place of cmd.Start and cmd.Wait), take a command from [exec.Command]
//     or [exec.CommandContext] and a context: they start it in a process
//     group of its own (on Windows, a Job Object), with a WaitDelay
//     backstop, and watch the context until Wait returns, so that a cancel
//     kills the group also after the direct child exited: the launcher
//     shape (sh -c 'work &', npm and mise shims, wrappers that start the
//     real work in the background and exit), whose descendants os/exec
//     never signals. The watch is a [context.AfterFunc] that Wait stops: a
//     long-lived context keeps no registration per finished command.
//   - [Apply] configures a command from [exec.CommandContext] before its
//     Start, for code that hands the command to something else to start
//     and wait for: a process group of its own, a Cancel that kills that
//     group, and a WaitDelay backstop. It stops the waiting shape only (the
//     direct child still runs when the context is done), because os/exec
//     calls Cancel only while it has not yet seen the direct child exit.
//
// # Which group is signalled
//
// A process group is named by a number, the id of its first leader, and a
// number is only safe to signal while a member of the group lives: once the
// group is empty, the number can name a new process and a new group.
//
// On Linux (6.9 or later) the package opens a pidfd on the direct child
// while it is provably unreaped (right after Start; or, in Cancel, checked
// through [os.Process.Signal] after opening it) and signals the group
// through that pidfd with PIDFD_SIGNAL_PROCESS_GROUP. The kernel then
// addresses the group by its struct pid, the object the pidfd holds, not
// by its number: the signal reaches the processes whose group is this
// command's group, also after the direct child was reaped, and once no
// member is left it reaches nobody (ESRCH), even if the number has been
// reused since. A pidfd does not keep the number itself from being reused;
// it does not need to.
//
// On other Unix systems, and on Linux kernels without that flag, the group
// is signalled by number (kill(-pgid)), and only while os/exec has not
// reaped the direct child ([os.Process.Signal] with signal 0 says so just
// before). What is left is the window between that check and the kill: the
// direct child would have to be reaped, every other member exit, and the
// process ids wrap around to a new group leader within it. There the
// launcher shape is not stopped: after the direct child exited, only
// WaitDelay ends the Wait, and the descendants keep running.
//
// A group id of 0 or 1, or the caller's own, is never signalled: only the
// direct child is then.
//
// # What it does not stop
//
// A descendant that leaves the group (setsid, setpgid: daemons, job
// control with set -m) is not signalled; WaitDelay bounds the Wait, and the
// descendant keeps running. Only a cgroup or a PID namespace contains
// those: on Linux, [Contain] starts the command in a cgroup of its own
// and kills all of it on cancel (root or a delegated cgroup needed).
//
// # Windows
//
// Windows has no process groups to signal; a Job Object holds the tree
// instead. [Start] and [Run] create the child suspended (CREATE_SUSPENDED,
// added to the caller's creation flags), assign it to a job of its own and
// only then resume it, so that every descendant starts inside the job,
// which allows no breakaway. A cancel terminates the job
// (TerminateJobObject): the whole tree, also after the direct child exited
// (the launcher shape); WaitDelay stays the backstop. The job kills its
// processes when its last handle closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE),
// so a caller that dies takes the tree with it. Wait closes the handle: a
// command that finished by itself leaves its descendants running, as on
// Linux (kill-on-close is lifted first), unless [Contain] was given, which
// makes Wait terminate them. Should a step after the start fail (opening
// the child, assigning it, resuming it), Start kills the child and returns
// an error that names the step.
//
// [Apply] makes no job there: it does not start the command, so nothing
// would resume a child created suspended. Its Cancel terminates the direct
// child only (TerminateProcess, as os/exec's own Cancel does), and
// WaitDelay ends a Wait that a descendant holding the output keeps open;
// the descendants keep running. [Graceful] is an error there: a process
// can only be terminated (a console's CTRL_BREAK_EVENT, the nearest to a
// signal, reaches only processes sharing the caller's console, and Wine 8
// does not deliver it). A process that a service starts on the tree's
// behalf (the Task Scheduler, WMI, a COM server) is not in the job.
//
// This has been run under Wine 8 (Debian's, in this module's CI), not on
// Windows: the tests there judge, without this package, that after a
// cancel no process of a two-level tree lives, in both shapes; that a dead
// caller takes the tree with it; and what Apply and Contain do.
//
// # Terminals
//
// In a group of its own, the child is no longer in the terminal's
// foreground group, so Ctrl-C reaches the caller and not the child. A
// caller that wants Ctrl-C to stop the child turns SIGINT into a cancel
// ([os/signal.NotifyContext]), which stops the whole group.
package cancelpolicy
