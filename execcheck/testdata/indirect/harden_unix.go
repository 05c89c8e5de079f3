//go:build unix

package indirect

import (
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// hardenProcessLifetime puts cmd in a group of its own, kills the group
// on cancel, and bounds Wait.
func hardenProcessLifetime(cmd *exec.Cmd) { // want hardenProcessLifetime:`^execcheck\[param 0: \[group waitdelay cancel\(group:KILL\)\]\]$`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return unix.Kill(-cmd.Process.Pid, unix.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}

// sysProcAttr is the attributes of a command in a group of its own.
func sysProcAttr() *syscall.SysProcAttr { // want sysProcAttr:`^execcheck\[returns a group SysProcAttr\]$`
	return &syscall.SysProcAttr{Setpgid: true}
}

// killTree kills cmd's group.
func killTree(cmd *exec.Cmd) error { // want killTree:`^execcheck\[param 0: \[kills\(group:KILL\)\]\]$`
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// groupKiller returns a Cancel that kills cmd's group.
func groupKiller(cmd *exec.Cmd) func() error { // want groupKiller:`^execcheck\[returns a func that kills: group:KILL\]$`
	return func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// signalGroup sends sig to cmd's group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error { // want signalGroup:`^execcheck\[param 0: \[kills\(group:sig\(param 1\)\)\]\]$`
	return syscall.Kill(-cmd.Process.Pid, sig)
}
