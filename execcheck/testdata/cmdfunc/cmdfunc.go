//go:build unix

// Package cmdfunc holds commands made through exec.Command kept in a
// field or a variable of function type, for tests to put a fake there
// (reduced from a Docker TUI's OSCommand), and a Kill helper that
// kills the group when the command has one and the direct child
// otherwise.
package cmdfunc

import (
	"context"
	"io"
	"os/exec"
	"syscall"
)

// OSCommand runs commands through its command field.
type OSCommand struct {
	command func(string, ...string) *exec.Cmd
}

func NewOSCommand() *OSCommand { return &OSCommand{command: exec.Command} }

// SetCommand puts a fake in, for tests.
func (c *OSCommand) SetCommand(f func(string, ...string) *exec.Cmd) { c.command = f }

func (c *OSCommand) RunCustomCommand(command string) *exec.Cmd { // want RunCustomCommand:`execcheck\[result: \[made\(1\)\]\]`
	return c.command("bash", "-c", command)
}

func (c *OSCommand) PrepareForChildren(cmd *exec.Cmd) { // want PrepareForChildren:`execcheck\[param 0: \[group\]\]`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func (c *OSCommand) Kill(cmd *exec.Cmd) error { // want Kill:`execcheck\[param 0: \[kills\(group:KILL, child:KILL\)\]\]`
	if cmd.Process == nil {
		return nil
	}
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return cmd.Process.Kill()
}

// Logs: the stop's kill reaches only bash.
func Logs(c *OSCommand, w io.Writer, stop chan struct{}) {
	cmd := c.RunCustomCommand("docker logs -f x")
	cmd.Stdout = w
	cmd.Start() // want `^hang: stdout is an io.Writer \(w\), a pipe unless it holds an \*os.File and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(cmd.Process.Kill\(\) \(in Kill\)\)`
	go func() {
		<-stop
		c.Kill(cmd)
	}()
	cmd.Wait()
}

// LogsInGroup: the command gets its group before the start, so Kill
// takes its first arm.
func LogsInGroup(c *OSCommand, w io.Writer, stop chan struct{}) {
	cmd := c.RunCustomCommand("docker logs -f x")
	c.PrepareForChildren(cmd)
	cmd.Stdout = w
	cmd.Start()
	go func() {
		<-stop
		c.Kill(cmd)
	}()
	cmd.Wait()
}

var execCommandContext = exec.CommandContext

// Script: exec.CommandContext through a variable, its default Cancel.
func Script(ctx context.Context, script string) ([]byte, error) {
	return execCommandContext(ctx, "sh", "-c", script).Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel`
}
