// Package prochanded keeps a command in a field and hands its process
// out through an exported method, reduced from gitlab-runner's
// helpers/process: the killer of another package kills what Process
// returns, which execcheck does not see.
package prochanded

import (
	"io"
	"os"
	"os/exec"
)

// Cmd wraps the command.
type Cmd struct {
	internal *exec.Cmd
}

// New makes it.
func New(name string, args []string, out io.Writer) *Cmd {
	c := exec.Command(name, args...)
	c.Stdout = out
	return &Cmd{internal: c}
}

// Start starts it.
func (c *Cmd) Start() error {
	return c.internal.Start()
}

// Wait waits for it.
func (c *Cmd) Wait() error { return c.internal.Wait() }

// Process is what callers kill.
func (c *Cmd) Process() *os.Process { return c.internal.Process }

type quiet struct {
	internal *exec.Cmd
}

// run's command hands its process only to the package.
func (q *quiet) run(name string, out io.Writer) error {
	q.internal = exec.Command(name)
	q.internal.Stdout = out
	return q.internal.Run()
}

func (q *quiet) process() *os.Process { return q.internal.Process }
