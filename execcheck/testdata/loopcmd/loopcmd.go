// Package loopcmd holds restart loops, reduced from sst's mosaic: a
// local *exec.Cmd declared before the loop, whose process the next turn
// kills before it assigns the next command. The kill is of the command
// the turn before started.
package loopcmd

import (
	"os"
	"os/exec"
	"syscall"

	"example.com/t/loopcmd/proc"
)

func kill(p *os.Process) { _ = p.Signal(syscall.SIGTERM) } // want kill:`^execcheck\[pid param 0: child:other\]$`

// Local kills the direct child by a helper of this package.
func Local(evts <-chan []string) {
	var cmd *exec.Cmd
	exited := make(chan bool)
	for fields := range evts {
		if cmd != nil && cmd.Process != nil {
			kill(cmd.Process)
			<-exited
		}
		cmd = exec.Command(fields[0], fields[1:]...)
		cmd.Stdout = os.Stdout
		_ = cmd.Start() // want `^orphan: a cancel kills only the direct child \(p\.Signal\(syscall\.SIGTERM\) \(in kill\)\)`
		go func() {
			_ = cmd.Wait()
			exited <- true
		}()
	}
}

// Other does the same through another package's constructor and kill.
func Other(evts <-chan []string) {
	var cmd *exec.Cmd
	exited := make(chan bool)
	for fields := range evts {
		if cmd != nil && cmd.Process != nil {
			_ = proc.Kill(cmd.Process)
			<-exited
		}
		cmd = proc.Command(fields[0], fields[1:]...)
		cmd.Stdout = os.Stdout
		_ = cmd.Start() // want `^orphan: a cancel kills only the direct child \(p\.Signal\(syscall\.SIGTERM\) \(in Kill\)\)`
		go func() {
			_ = cmd.Wait()
			exited <- true
		}()
	}
}

// Group: the fix, a group of its own killed whole: ok.
func Group(evts <-chan []string) {
	var cmd *exec.Cmd
	exited := make(chan bool)
	for fields := range evts {
		if cmd != nil && cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		cmd = exec.Command(fields[0], fields[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Stdout = os.Stdout
		_ = cmd.Start()
		go func() {
			_ = cmd.Wait()
			exited <- true
		}()
	}
}
