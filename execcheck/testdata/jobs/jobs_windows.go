// The code of package jobsplain, in a file whose name says Windows.

package jobs

import (
	"bytes"
	"context"
	"os/exec"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run collects the output in a buffer, with the default Cancel: the fix
// is cancelpolicy.Run, and -fix makes it, as on Unix.
func Run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\): a descendant holding the pipe keeps Wait waiting after the cancel; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
	return out.String(), err
}

// Output collects the output with Output.
func Output(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status", "--short")
	cmd.Dir = dir
	return cmd.Output() // want `^hang: the output is collected by Output\(\) .*; fix: collect the output in a bytes.Buffer set as cmd.Stdout and run cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
}

// Watch kills the direct child by hand when ctx is done.
func Watch(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: .*; fix: start it with cancelpolicy.Start\(ctx, cmd\) and call the Wait it returns, in place of the kill by hand: cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
		return err
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	defer stop()
	return cmd.Wait()
}

// Nohup runs a script whose work leaves the process group on Unix: no
// Contain here, nothing leaves a job object, so -fix rewrites it.
func Nohup(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", "nohup worker")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer .*; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
	return out.Bytes(), err
}

// Bounded bounds its Wait: ok on Windows, as before (see TestJobObjects).
func Bounded(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Policy is the fix: ok, for the job object.
func Policy(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, exec.CommandContext(ctx, argv[0], argv[1:]...))
}
