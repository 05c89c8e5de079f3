package indirect

import (
	"os/exec"
	"syscall"
	"time"
)

// hardenProcessLifetime bounds Wait: Windows has no process groups of
// this kind.
func hardenProcessLifetime(cmd *exec.Cmd) { cmd.WaitDelay = 5 * time.Second }

func sysProcAttr() *syscall.SysProcAttr { return nil }

func killTree(cmd *exec.Cmd) error { return cmd.Process.Kill() }

func groupKiller(cmd *exec.Cmd) func() error { return cmd.Process.Kill }

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error { return cmd.Process.Kill() }
