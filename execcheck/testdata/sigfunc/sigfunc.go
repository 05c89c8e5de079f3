//go:build unix

// Package sigfunc holds signals given as the result of a function of the
// package that only returns a constant, reduced from kata's hook runner
// (syscallSIGTERM(), syscallSIGKILL(), syscallSignal0() for its build):
// the signal is that constant, a probe (signal 0) kills nothing.
package sigfunc

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

func sigTERM() syscall.Signal { return syscall.SIGTERM }
func sigKILL() syscall.Signal { return syscall.SIGKILL }
func signal0() syscall.Signal { return syscall.Signal(0) }

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error { // want signalGroup:`^execcheck\[param 0: \[kills\(group:sig\(param 1\)\)\]\]$`
	return syscall.Kill(-cmd.Process.Pid, sig)
}

func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(signal0()) == nil
}

// killTree sends the group SIGTERM, then SIGKILL unless the leader is
// gone by the grace; the probe of the leader kills nothing.
func killTree(cmd *exec.Cmd, grace time.Duration) { // want killTree:`^execcheck\[param 0: \[kills\(group:other, group:KILL\)\]\]$`
	_ = signalGroup(cmd, sigTERM())
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !alive(cmd.Process.Pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = signalGroup(cmd, sigKILL())
}

// Hook runs a configured hook with a timeout: the group is killed only
// while Wait has not returned, and the hook may exit at once leaving
// its work: launcher, not orphan (the probe is no kill of the leader).
func Hook(name string, args []string, out *os.File, timeout time.Duration) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall\.Kill\(-cmd\.Process\.Pid, sig\) \(in signalGroup\) \(in killTree\)\) only until Wait returns`
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		killTree(cmd, time.Second)
		return <-done
	}
}
