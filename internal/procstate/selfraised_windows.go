package procstate

import "syscall"

// selfRaised are the signals a process raises itself when it faults or
// aborts, of those Go names on Windows.
var selfRaised = map[syscall.Signal]bool{
	syscall.SIGSEGV: true, syscall.SIGBUS: true, syscall.SIGILL: true, syscall.SIGFPE: true, syscall.SIGABRT: true,
	syscall.SIGTRAP: true,
}
