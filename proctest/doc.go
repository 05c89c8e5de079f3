// Package proctest checks, in goleak's form, that a test leaves no process
// behind.
//
//	func TestServer(t *testing.T) {
//		defer proctest.VerifyNone(t, proctest.IgnoreCurrent()) // one test
//		...
//	}
//
// For the whole package, after all its tests, the TestMain is
// exectest.VerifyTestMain, which checks goroutines too (its
// exectest.IgnoreProcess takes what [IgnoreProcess] takes):
//
//	func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
//
// [Find] returns what it found as an error; [VerifyNone] reports it and
// kills those processes, so that the next check does not report them
// again. They look at the live processes below
// the test process (zombies count as dead), and keep looking for a
// moment ([MaxWait]) while the kernel tears killed processes down.
// [IgnoreCurrent] and [IgnoreProcess] say what to accept; a [Process] is
// what a report says of one process.
//
// A process is known by its pid and its start time, never its pid alone:
// a pid recycled since the check is never killed. exectest.VerifyTestMain
// makes the test process a child subreaper first, so that a process that
// escaped by a double fork or setsid, and whose parent exited, is still
// below it; a report names the test process as the parent it is, and
// marks such a process as adopted ([Process].Adopted) where that is known,
// or says it cannot tell ([Process].OriginUnknown), never a guess. The checks also reap
// the zombies of adopted orphans, by pid, which nothing else would: never
// a process that os/exec started (see docs/how-it-works.md, Side
// effects). After a failing run, exectest.VerifyTestMain still kills and
// lists what it would have reported, and the run fails as its tests
// said. Under t.Parallel these checks cannot tell which test started
// a process; exectest.AssertCancel tracks its own fixture per check
// instead, and the processes of a fixture in use are left to it.
//
// Off Linux (macOS, FreeBSD, OpenBSD, Windows), and on Linux with
// EXECTEST_PORTABLE=1, processes, parents and creation times come from
// gopsutil and there is no child subreaper: an escaped orphan goes to init
// and is not seen, which every report says (on Windows, an orphan whose
// parent exited: run under Wine 8 in CI). Where gopsutil lists no
// process (NetBSD), every check fails, saying so, rather than find nothing.
package proctest
