// Package jobsplain is package jobs's Windows code in a plain file: on
// Unix the advice is today's, a process group (cancelpolicy.Run makes
// one), where the same code in a _windows.go file is told of the job
// object.
package jobsplain

import (
	"bytes"
	"context"
	"os/exec"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run collects the output in a buffer, with the default Cancel.
func Run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
	return out.String(), err
}

// Output collects the output with Output.
func Output(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status", "--short")
	cmd.Dir = dir
	return cmd.Output() // want `^hang: the output is collected by Output\(\) .*; fix: collect the output in a bytes.Buffer set as cmd.Stdout and run cancelpolicy.Run\(ctx, cmd\)$`
}

// Watch kills the direct child by hand when ctx is done.
func Watch(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: .*a cancel kills only the direct child \(cmd.Process.Kill\(\)\).*; fix: start it with cancelpolicy.Start\(ctx, cmd\) and call the Wait it returns, in place of the kill by hand$`
		return err
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	defer stop()
	return cmd.Wait()
}

// Nohup runs a script whose work leaves the process group on Unix.
func Nohup(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", "nohup worker")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer .*; fix: run it with cancelpolicy.Run\(ctx, cmd, cancelpolicy.Contain\(\)\) \(the command line runs nohup: only a cgroup of its own stops what leaves the group; Linux\)$`
	return out.Bytes(), err
}

// Bounded bounds its Wait, but the cancel reaches the direct child only.
func Bounded(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child .*; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// Policy is the fix.
func Policy(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, exec.CommandContext(ctx, argv[0], argv[1:]...))
}
