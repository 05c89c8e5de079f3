// Package testproc starts, for exectest's own tests, the processes they
// look at (a sleep, a holder of a fixture's FIFO), makes a fixture's
// folder, and reads what a test checks of a process that the toolkit has
// no reader for (the signals it ignores). Every process it starts is
// killed and reaped when the test ends.
package testproc
