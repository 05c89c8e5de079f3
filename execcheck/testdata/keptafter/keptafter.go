//go:build unix

// Package keptafter holds kills through a process kept in another
// struct's field, made by a method the run calls only after Wait
// (reduced from OliveTin's executor after its fix).
package keptafter

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
)

type Entry struct {
	Process *os.Process
}

type Executor struct{}

// Kill is exported: a user's kill may come at any time, from another
// package; the timeout's cancel is still the default Cancel's.
func (e *Executor) Kill(en *Entry) error {
	return syscall.Kill(-en.Process.Pid, syscall.SIGKILL)
}

func wrap(ctx context.Context, script string) *exec.Cmd { // want wrap:`^execcheck\[result: \[made\(1\) group\]\]$`
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Step kills the group through the kept process only after Wait, which
// waits for the pipe's EOF: the kill never comes while a descendant
// holds it.
func Step(e *Executor, en *Entry, script string, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out bytes.Buffer
	cmd := wrap(ctx, script)
	cmd.Stdout = &out
	_ = cmd.Start() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
	en.Process = cmd.Process
	_ = cmd.Wait()
	if ctx.Err() == context.DeadlineExceeded {
		_ = e.Kill(en)
	}
	return out.String()
}

// Watched keeps its process in a field of its own.
type Watched struct {
	Process *os.Process
}

func (e *Executor) KillWatched(en *Watched) error {
	return syscall.Kill(-en.Process.Pid, syscall.SIGKILL)
}

// StepWatched kills the group through the kept process when the context
// is done, while Wait waits: the kill reaches the group.
func StepWatched(e *Executor, en *Watched, script string, timeout time.Duration) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out bytes.Buffer
	cmd := wrap(ctx, script)
	cmd.Stdout = &out
	_ = cmd.Start()
	en.Process = cmd.Process
	go func() {
		<-ctx.Done()
		_ = e.KillWatched(en)
	}()
	_ = cmd.Wait()
	return out.String()
}
