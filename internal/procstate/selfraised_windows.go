package procstate

import "syscall"

// selfRaised are the signals a process raises itself when it faults or
// aborts, of those Go names on Windows.
var selfRaised = map[syscall.Signal]bool{
	syscall.SIGSEGV: true, syscall.SIGBUS: true, syscall.SIGILL: true, syscall.SIGFPE: true, syscall.SIGABRT: true,
	syscall.SIGTRAP: true,
}

// noWatchText says why Windows cannot tell how a process ended: a
// process ended by TerminateProcess (a Job Object's termination too) has
// the exit code its killer chose, like one that exited by itself.
const noWatchText = "windows: a process that TerminateProcess ended has an exit code like one that exited by itself"
