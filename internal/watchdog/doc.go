// Package watchdog cleans up after a test process that died without its
// cleanups: the -timeout panic, os.Exit, log.Fatal in TestMain, a panic
// in another goroutine, SIGKILL. Whatever kills it, the fixture processes
// it started, their cgroups and folders are gone within a second.
//
// The watchdog is the test binary itself, re-executed with a role in its
// arguments and dispatched from this package's init, so that it needs no
// TestMain hook: the root package imports it. The test process starts it
// with its first fixture ([Watch]), once, and tells it over a pipe what
// each fixture is made of, as it learns it: its folder, its cgroup, and
// every process the fixture reported, by pid and start time. The test
// process holds the pipe's only write end (close-on-exec: no process it
// starts inherits it), so the watchdog reads EOF when, and only when, the
// test process exits, however it exits. It then does what the fixtures'
// cleanups would have done for those not cleaned up yet
// ([proc.Remains]): it kills their cgroups and, by identity, every
// process found as theirs (the reported ones, the trees below them, the
// holders of their FIFOs), removes the cgroups and the folders, and exits.
// On a clean end nothing is left to do, and it exits at once.
//
// It changes nothing the code under test sees: it runs in a process group
// of its own (Ctrl-C at a terminal, sent to the foreground group, does
// not reach it before it has cleaned up) and ignores SIGINT, SIGTERM and
// SIGHUP; its stdin, stdout and stderr are /dev/null (it never holds a
// command's pipes, the test's output or a fixture's FIFO); it starts no
// exec.Cmd in the test process, and no goroutine there; proctest's checks
// and exectest's leave it and its pipe out (see [proc.SetWatchdog]).
//
// The protocol is one line per fact, written whole by the test process:
//
//	dir TOKEN "PATH"      the fixture's folder
//	cgroup TOKEN "PATH"   the fixture's cgroup
//	proc TOKEN PID START  a process of the fixture, by identity
//	end TOKEN             cleaned up: forget it
//
// On Windows the pipe's read end is the one handle the watchdog inherits,
// named in its arguments; it starts in a process group of its own, which
// Ctrl-C does not reach, and kills by handle, checked against the
// creation time.
package watchdog
