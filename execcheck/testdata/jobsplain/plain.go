// Package jobsplain is package jobs's Windows code in a plain file: on
// Unix the advice is today's, a process group (cancelpolicy.Run makes
// one), where the same code in a _windows.go file is told of the job
// object.
package jobsplain

import (
	"bufio"
	"bytes"
	"context"
	"os"
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

// Applied runs a shim through cancelpolicy.Apply: its Cancel kills the
// group, but only while npx runs (the launcher shape).
func Applied(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "npx", "vite")
	cmd.Stdout = os.Stdout
	if err := cancelpolicy.Apply(cmd); err != nil {
		return err
	}
	return cmd.Run() // want `^launcher: Cancel kills the group \(cancelpolicy.Apply's Cancel kills the group\), but os/exec calls Cancel only while the direct child runs, and npx is a launcher shim.*; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// AppliedWaiting runs git, which waits for its children, through
// cancelpolicy.Apply: its group kill stops the waiting shape.
func AppliedWaiting(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "gc")
	cmd.Dir = dir
	if err := cancelpolicy.Apply(cmd); err != nil {
		return err
	}
	return cmd.Run()
}

// KillCancel says Cancel = Process.Kill out loud.
func KillCancel(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(WaitDelay = time.Second\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// Launch is the launcher shape: the shell exits at once and leaves the
// server running, which the default Cancel never reaches.
func Launch(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "server &")
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(WaitDelay = time.Second\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// Stream reads StdoutPipe to EOF, which WaitDelay does not close.
func Stream(ctx context.Context, argv []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\), which WaitDelay does not close and nothing bounds Wait; a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; fix: start it with cancelpolicy.Start\(ctx, cmd\) and call the Wait it returns$`
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, cmd.Wait()
}
