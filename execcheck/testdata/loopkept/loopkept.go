//go:build unix

// Package loopkept holds a process kept in a local variable across the
// turns of a loop (reduced from real code: a file watcher's runner that
// restarts the command on each build): the kill at the top of a turn
// stops the command that the turn before started.
package loopkept

import (
	"io"
	"os"
	"os/exec"
	"syscall"
)

func start(command string) (*exec.Cmd, io.ReadCloser, error) { // want start:`^execcheck\[result: \[made\(1\) runs:Start\] result 1: stdout of the command returned\]$`
	cmd := exec.Command("sh", "-c", command)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return cmd, out, nil
}

func stop(p *os.Process) { // want stop:`^execcheck\[pid param 0: child:KILL\]$`
	p.Kill()
	p.Wait()
}

func stopGroup(p *os.Process) { // want stopGroup:`^execcheck\[pid param 0: group:KILL\]$`
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Wait()
}

// Runner restarts the command on each build; the kill reaches the direct
// child only.
func Runner(command string, builds <-chan bool, pipes chan<- io.ReadCloser) {
	var current *os.Process
	for range builds {
		if current != nil {
			stop(current)
		}
		cmd, out, err := start(command) // want `^orphan: a cancel kills only the direct child`
		if err != nil {
			return
		}
		pipes <- out
		current = cmd.Process
	}
}

// GroupRunner: the same with a group of its own, killed whole.
func GroupRunner(command string, builds <-chan bool, pipes chan<- io.ReadCloser) {
	var current *os.Process
	for range builds {
		if current != nil {
			stopGroup(current)
		}
		cmd := exec.Command("sh", "-c", command)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return
		}
		current = cmd.Process
	}
}

// Once: no loop, the variable killed before it is ever set: nothing
// links the kill to the command.
func Once(command string, stopFirst bool) error {
	var current *os.Process
	if stopFirst && current != nil {
		stop(current)
	}
	cmd := exec.Command("sh", "-c", command)
	if err := cmd.Start(); err != nil {
		return err
	}
	current = cmd.Process
	_ = current
	return cmd.Wait()
}
