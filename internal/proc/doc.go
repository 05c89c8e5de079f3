// Package proc identifies, tracks, describes and safely kills the
// processes of a test fixture: the machinery under exectest's check and
// proctest's.
//
// A process is named by an [Identity]: its pid and its start time, never
// its pid alone, so that a recycled pid can neither be blamed nor killed.
// A [Tracker] follows every process of one fixture (a cgroup v2 where the
// host allows it, else the test process as child subreaper and the
// processes that hold the fixture's FIFO); [Describe] gathers what a
// failure message says of a process, down to which of the command's pipes
// it holds. Signals go through a pidfd checked against the start time;
// reaping is by pid only, never wait4(-1), and a process group is never
// signalled for a group id of 0 or 1 or the test's own ([SafeGroup]).
//
// Nothing here scans the whole of /proc on a passing check: the cost
// grows with the fixture's processes, not with the machine's.
// [PipeHolders] does scan, for a failure's diagnosis, and [RemoveStale]
// once per test binary, for what a killed test binary left behind.
//
// All of the above is the Linux mode. Off Linux, and on Linux with
// EXECTEST_PORTABLE=1, the portable mode takes the same facts from
// gopsutil (see [Portable], [CannotSee]): the start time is the creation
// time, a signal goes to an os.Process found by pid and re-checked first,
// the tree comes from every process's parent, and there is no cgroup, no
// subreaper and no other process's descriptors.
package proc
