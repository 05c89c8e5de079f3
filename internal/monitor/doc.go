// Package monitor is the test side of the fixture protocol: it reads the
// reports the fixture's processes write to their FIFO (package marker has
// the wire format, package fixture the writer), identifies each reporter
// as a process of the test's own (by the FIFO it holds, or in the portable
// mode by where it stands below the test process), checks that the
// descendant took the tree shape it was asked for and runs the program it
// should, and keeps what the reports established for the check to read at
// any moment as a [Snapshot]. [RanUnreported] explains a run that never
// reported.
//
// The checks' verdicts, failure texts and fix lines are the root
// package's: a Snapshot says what is, not what it means for the check.
package monitor
