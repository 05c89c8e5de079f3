//go:build unix

// Package findprocess holds kills through os.FindProcess of a command's
// pid (reduced from a hot-reload runner): the process found is the
// command's, and its Kill a kill of the direct child.
package findprocess

import (
	"os"
	"os/exec"
)

func killByPid(pid int) error { // want killByPid:`^execcheck\[pid param 0: child:KILL\]$`
	proc, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return proc.Kill()
}

// Run starts sh -c bin and kills it by pid when stop fires: only sh.
func Run(bin string, stop <-chan struct{}) error {
	c := exec.Command("/bin/sh", "-c", bin)
	c.Stdout = os.Stdout
	if err := c.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(proc.Kill\(\) \(in killByPid\)\)`
		return err
	}
	go func() {
		<-stop
		_ = killByPid(c.Process.Pid)
		_, _ = c.Process.Wait()
	}()
	return nil
}

// RunParam: the same, the goroutine given the command as its argument.
func RunParam(bin string, stop <-chan struct{}) error {
	c := exec.Command("/bin/sh", "-c", bin)
	c.Stdout = os.Stdout
	if err := c.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(proc.Kill\(\) \(in killByPid\)\)`
		return err
	}
	go func(cmd *exec.Cmd) {
		<-stop
		_ = killByPid(cmd.Process.Pid)
		_, _ = cmd.Process.Wait()
	}(c)
	return nil
}
