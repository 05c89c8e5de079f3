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
//     group of its own, with a WaitDelay backstop, and watch the context
//     until Wait returns, so that a cancel kills the group also after the
//     direct child exited: the launcher shape (sh -c 'work &', npm and
//     mise shims, wrappers that start the real work in the background and
//     exit), whose descendants os/exec never signals. The watch is a
//     [context.AfterFunc] that Wait stops: a long-lived context keeps no
//     registration per finished command.
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
// The package builds on Windows, where it sets WaitDelay and keeps os/exec's
// Cancel, which terminates the direct child only (TerminateProcess); the
// watch of [Start] does the same. Descendants keep running, and if one
// holds the command's output pipes, Wait returns WaitDelay after the
// cancel. [Graceful] is an error there. None of this has been run on
// Windows by this package's tests: only its build is checked.
//
// # Terminals
//
// In a group of its own, the child is no longer in the terminal's
// foreground group, so Ctrl-C reaches the caller and not the child. A
// caller that wants Ctrl-C to stop the child turns SIGINT into a cancel
// ([os/signal.NotifyContext]), which stops the whole group.
package cancelpolicy
