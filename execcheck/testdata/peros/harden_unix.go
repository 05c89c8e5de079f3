//go:build unix

package peros

import (
	"os/exec"
	"syscall"
	"time"
)

// harden puts cmd in a group of its own, kills the group on cancel, and
// bounds Wait.
func harden(cmd *exec.Cmd) { // want harden:`^execcheck\[param 0: \[group waitdelay cancel\(group:KILL\)\]\]$`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
}
