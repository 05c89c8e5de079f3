//go:build unix

// Package lib hardens, makes and runs commands for other packages: what
// it does crosses to them as analysis facts.
package lib

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"
)

// Harden puts cmd in a group of its own, kills the group on cancel, and
// bounds Wait.
func Harden(cmd *exec.Cmd) { // want Harden:`^execcheck\[param 0: \[group waitdelay cancel\(group:KILL\)\]\]$`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return KillGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
}

// KillGroup kills the group pgid leads.
func KillGroup(pgid int) error { // want KillGroup:`^execcheck\[pid param 0: group:KILL\]$`
	return syscall.Kill(-pgid, syscall.SIGKILL)
}

// Command makes a command that collects its output.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd { // want Command:`^execcheck\[result: \[made\(1\) copypipe\]\]$`
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout = new(bytes.Buffer)
	return cmd
}

// Run runs cmd.
func Run(cmd *exec.Cmd) error { // want Run:`^execcheck\[param 0: \[runs:Run\]\]$`
	return cmd.Run()
}

// Start starts cmd with cancelpolicy-like care nowhere: a plain Start.
func Start(cmd *exec.Cmd) error { // want Start:`^execcheck\[param 0: \[runs:Start\]\]$`
	return cmd.Start()
}

// Session is a started command, as gomega's gexec keeps one: its Kill
// reaches the direct child only.
type Session struct {
	Command *exec.Cmd
	Out     *bytes.Buffer
}

// StartSession starts command and keeps it in a Session.
func StartSession(command *exec.Cmd) (*Session, error) { // want StartSession:`^execcheck\[param 0: \[copypipe kills\(child:KILL\) runs:Start\]\]$`
	s := &Session{Command: command, Out: new(bytes.Buffer)}
	command.Stdout = s.Out
	return s, command.Start()
}

// Kill kills the session's process.
func (s *Session) Kill() error { // want Kill:`^execcheck\[kills: child:KILL\]$`
	return s.Command.Process.Kill()
}

// Step carries a step's context.
type Step struct {
	Ctx context.Context
}

// StepCommand makes a command under the step's context: which context
// it is crosses as the field of the parameter.
func StepCommand(s *Step, name string) *exec.Cmd { // want StepCommand:`^execcheck\[result: \[made\(1\)\]\]$`
	return exec.CommandContext(s.Ctx, name)
}
