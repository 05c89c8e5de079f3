// The code of package jobsplain, in a file whose name says Windows.

package jobs

import (
	"bufio"
	"bytes"
	"context"
	"os"
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
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
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
	if err := cmd.Start(); err != nil { // want `^hang: .*a cancel kills only the direct child \(cmd.Process.Kill\(\)\).*; fix: start it with cancelpolicy.Start\(ctx, cmd\) and call the Wait it returns, in place of the kill by hand: cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
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

// Bounded bounds its Wait, but the default Cancel terminates the direct
// child alone: its descendants keep running, out of any job object.
func Bounded(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(WaitDelay = time.Second\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
}

// Policy is the fix: ok, for the job object.
func Policy(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, exec.CommandContext(ctx, argv[0], argv[1:]...))
}

// Applied runs a shim through cancelpolicy.Apply. Apply makes no job
// object on Windows (nothing would resume a child created suspended): its
// Cancel terminates npx alone, and what npx started keeps running.
func Applied(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "npx", "vite")
	cmd.Stdout = os.Stdout
	if err := cancelpolicy.Apply(cmd); err != nil {
		return err
	}
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cancelpolicy.Apply's Cancel, which terminates the direct child only on Windows: Apply makes no job object\); Wait returns in bounded time \(cancelpolicy.Apply's WaitDelay\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
}

// AppliedWaiting runs git, which waits for its children, through
// cancelpolicy.Apply: on Windows its Cancel terminates git alone.
func AppliedWaiting(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "git", "gc")
	cmd.Dir = dir
	if err := cancelpolicy.Apply(cmd); err != nil {
		return err
	}
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cancelpolicy.Apply's Cancel, which terminates the direct child only on Windows: Apply makes no job object\); Wait returns in bounded time \(cancelpolicy.Apply's WaitDelay\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
}

// KillCancel says Cancel = Process.Kill out loud: it terminates the
// direct child alone, as the default Cancel does.
func KillCancel(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(WaitDelay = time.Second\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
}

// Launch is the launcher shape: the shell exits at once and leaves the
// server running, which the default Cancel never reaches.
func Launch(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "server &")
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(WaitDelay = time.Second\), but the descendants keep running; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
}

// Stream reads StdoutPipe to EOF, which WaitDelay does not close: a
// descendant holding the pipe keeps the read, and so the Wait, waiting.
func Stream(ctx context.Context, argv []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\), which WaitDelay does not close and nothing bounds Wait; a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; fix: start it with cancelpolicy.Start\(ctx, cmd\) and call the Wait it returns: cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, cmd.Wait()
}
