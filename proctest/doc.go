// Package proctest identifies, describes and safely kills the processes of a
// test fixture.
//
// A process is named by an [Identity]: its pid and its start time, never its
// pid alone, so that a recycled pid can neither be blamed nor killed. Facts
// for messages (command line, parent, state, open pipes) come from
// gopsutil and /proc; signals go through a pidfd where the kernel has them.
//
// Nothing here scans the whole of /proc on a passing check: the cost grows
// with the fixture's processes, not with the machine's.
package proctest
