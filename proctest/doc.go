// Package proctest identifies, tracks, describes and safely kills the
// processes of a test fixture, and checks that a test leaves no process
// behind.
//
// A process is named by an [Identity]: its pid and its start time, never its
// pid alone, so that a recycled pid can neither be blamed nor killed. A
// [Tracker] follows every process of one fixture (a cgroup v2 where the
// host allows it); [Describe] gathers what a failure message says of a
// process, down to which of the command's pipes it holds. Signals go
// through a pidfd checked against the start time; reaping is by pid only.
//
// [Find], [VerifyNone] and [VerifyTestMain] check, in goleak's form, that
// no process is left below the test process.
//
// Nothing here scans the whole of /proc on a passing check: the cost grows
// with the fixture's processes, not with the machine's. [PipeHolders] does
// scan, for a failure's diagnosis, and [RemoveStale] once per test binary.
package proctest
