//go:build unix

package procstate

import "syscall"

// selfRaised are the signals a process raises itself when it faults or
// aborts.
var selfRaised = map[syscall.Signal]bool{
	syscall.SIGSEGV: true, syscall.SIGBUS: true, syscall.SIGILL: true, syscall.SIGFPE: true, syscall.SIGABRT: true,
	syscall.SIGSYS: true, syscall.SIGTRAP: true, syscall.SIGXCPU: true, syscall.SIGXFSZ: true,
}

// noWatchText says why the portable mode cannot tell how a process ended.
const noWatchText = "portable mode: no pidfd to watch the descendant by, so how it ended cannot be told"
