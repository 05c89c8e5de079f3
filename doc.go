// Package exectest tests that cancelling a subprocess really stops it: the
// command and every process it started.
//
// [exec.CommandContext] kills only the direct child on cancel. When the
// command's Stdout or Stderr is not an [*os.File], os/exec copies the
// output through a pipe and [exec.Cmd.Wait] waits for EOF on it; a
// descendant that inherited the pipe, as in sh -c 'sleep 20 & wait',
// keeps Wait blocked for as long as it lives, and outlives the cancel.
//
// # Testing a runner: NewDescendant and AssertCancel
//
// [NewDescendant] prepares the fixture: a command line
// ([Descendant.Argv], or the file [Descendant.Script]) whose direct child
// leaves behind a descendant that holds the inherited stdout and stderr.
// [AssertCancel] calls run, the code under test, which starts that
// command; it cancels run's context once the descendant has proved it
// runs, and fails when run does not return within the bound ([Within],
// 1s by default), when a process of the fixture survives, or when run
// leaves goroutines or pipe descriptors behind. Every failure names the processes involved and says what to
// change. A check that proves nothing (run never ran the command,
// /bin/sleep is missing where it ran) skips with the reason, or fails
// when the environment variable EXECTEST_STRICT is on (1, true: what
// [strconv.ParseBool] accepts).
//
//	func TestRunnerCancel(t *testing.T) {
//		d := exectest.NewDescendant(t)
//		exectest.AssertCancel(t, d, func(ctx context.Context) error {
//			return myrunner.Run(ctx, d.Argv()) // the code under test
//		})
//	}
//
// The fixture's shape: by default the direct child waits for its
// descendant; [Launcher] makes it exit at once, leaving the descendant
// running (npm shims, sh -c 'work &'); [Escaping] makes the descendant call
// setsid, as daemons do; [DoubleFork] makes it a daemon that the direct
// child forked twice; [JobControl] puts it in a process group of its own
// in the child's session (set -m); [IgnoresTerm] makes it ignore SIGINT
// and SIGTERM. [Hermetic] re-executes the test binary instead of /bin/sh
// and /bin/sleep (see [VerifyTestMain]); [Lifetime] sets how long the
// descendant lives. The
// check is set by [Within], [CancelAfter] and [CancelAfterRandom] (cancel
// during start-up, to hunt races), [ProofTimeout], [SettleTime],
// [WithoutGoroutineCheck] and [WithoutDescriptorCheck]. AssertCancel
// returns a [Result] for tests that want more than the verdict; under
// go test -v a pass says in one line what it proved.
//
// # The test binary: VerifyTestMain
//
// [VerifyTestMain] is the one TestMain a package that uses exectest
// needs:
//
//	func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
//
// It serves as the [Hermetic] fixture, makes the test process a child
// subreaper, runs the tests, and fails a passing run that leaves
// goroutines (goleak) or processes behind; at the end it says how many
// checks skipped as vacuous. [IgnoreTopFunction], [IgnoreAnyFunction] and
// [IgnoreProcess] accept what the package leaves running on purpose, and
// [Cleanup] runs after the checks. A TestMain with setup of its own calls
// [fixtures.Dispatch] first.
//
// # Leak checks without the fixture
//
// [GoroutineScope] checks the goroutines that one piece of code started,
// exactly, even under t.Parallel. [DescriptorSnapshot] checks the test
// process's descriptors. Package [proctest] checks processes in one test,
// in goleak's form.
//
// # Fixing the code under test
//
// Production code uses package
// [github.com/exectest/exectest/cancelpolicy], which links neither testing
// nor this toolkit: a cancel kills the command's whole process group, also
// after the direct child exited, with WaitDelay as the backstop for a
// descendant that left the group:
//
//	cmd := exec.CommandContext(ctx, name, args...)
//	if err := cancelpolicy.Run(ctx, cmd); err != nil {
//		return err
//	}
//
// # What it needs, and what it changes
//
// Linux with /proc. Each fixture's processes are tracked by a cgroup v2
// where the test may make one (as root, or in a cgroup delegated to its
// user), otherwise by the test process as child subreaper and the
// fixture's own reports; processes are known by pid and start time and
// signalled through pidfds, so a recycled pid is never hit. The first
// fixture makes the test process a child subreaper for the rest of its
// life, and starts its watchdog: the test binary re-executed in a process
// group of its own, which at the test process's death, whatever kills it
// (the -timeout panic, os.Exit, SIGKILL), kills the fixtures' processes
// and removes their cgroups and folders within a second. A fixture is
// released (its processes killed, its orphans reaped, its cgroup, folder,
// FIFOs and pidfds given back) when its check ends, not when the test
// does. While a fixture is in use, the test binary catches SIGINT and
// SIGTERM, does the same itself, says so in one line on stderr, and dies
// of the signal; what a
// test binary killed together with its watchdog left is removed by the
// next one that makes a fixture. The toolkit never moves the command out
// of a cgroup the code under test chose, and never signals a process it
// has not identified by pid and start time.
//
// Elsewhere (macOS, the BSDs), and on Linux when the environment variable
// EXECTEST_PORTABLE is on (as EXECTEST_STRICT), the checks run in a portable mode: processes,
// parents and creation times from gopsutil, a process named by pid and
// creation time and re-checked right before any signal, no cgroup, no
// subreaper, and no look at another process's open files. It cannot see
// who holds the command's pipes, an escaped orphan that never reported
// once it runs a program without the fixture's token in its arguments, or
// the command's pipe ends left in the test process; [Result] (its Tracker),
// every failure and every skip say so, and the tests of what it cannot
// reach skip. On Windows the fixture is always the test binary (there is
// no /bin/sh), so its package needs [VerifyTestMain] as TestMain, or
// [NewDescendant] skips saying so; it reports through a file instead of a
// FIFO, and the shapes that need sessions, process groups or signal
// dispositions skip. That is run under Wine 8 in CI, not on Windows.
// docs/platforms.md in the repository has the table of what is checked
// where.
//
// The README and docs/how-it-works.md in the repository tell how each
// verdict is reached: https://github.com/exectest/exectest.
//
// [exec.CommandContext]: https://pkg.go.dev/os/exec#CommandContext
// [exec.Cmd.Wait]: https://pkg.go.dev/os/exec#Cmd.Wait
package exectest
