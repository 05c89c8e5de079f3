//go:build unix

// Package killer kills process groups and runs no command, as deref/exo's
// osutil does: it imports no os/exec, and still carries facts.
package killer

import "syscall"

// SignalGroup signals the group pgid leads.
func SignalGroup(pgid int, sig syscall.Signal) error { // want SignalGroup:`^execcheck\[pid param 0: group:sig\(param 1\)\]$`
	return syscall.Kill(-pgid, sig)
}

// KillGroup kills the group pgid leads.
func KillGroup(pgid int) error { // want KillGroup:`^execcheck\[pid param 0: group:KILL\]$`
	return SignalGroup(pgid, syscall.SIGKILL)
}
