//go:build unix

package exectest_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/examples/runners"
	"github.com/exectest/exectest/internal/backoff"
)

// A runner runs argv under ctx as code under test would. Each one below is
// a shape found in the field, broken or fixed.
type runner func(argv []string) func(ctx context.Context) error

func command(ctx context.Context, argv []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer // not an *os.File: os/exec copies through a pipe
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd
}

// The field's variants, from the downstream-style package.
var (
	defaultCancel = adapt(runners.DefaultCancel)
	killOnly      = adapt(runners.KillOnly)
	waitDelayOnly = adapt(runners.WaitDelayOnly)
	fixed         = adapt(runners.GroupKill)
	policy        = adapt(runners.Policy)
	abandoning    = adapt(runners.Abandoning)
)

func adapt(run func(context.Context, []string) error) runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error { return run(ctx, argv) }
	}
}

// neverRuns forgets to run the command at all.
func neverRuns([]string) func(context.Context) error {
	return func(context.Context) error { return nil }
}

// missingBinary runs a binary that does not exist.
func missingBinary([]string) func(context.Context) error {
	return func(ctx context.Context) error {
		//execcheck:ignore a binary that does not exist: nothing starts
		return command(ctx, []string{"/nonexistent/exectest-missing"}).Run()
	}
}

// fileStdout gives the command real files: Wait never blocks on a pipe,
// so the return is prompt, and the descendant is orphaned all the same.
func fileStdout(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		f, err := os.CreateTemp("", "exectest-stdout-")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		defer f.Close()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = f, f
		//execcheck:ignore a runner broken on purpose: the verdict tests need its failure
		return cmd.Run()
	}
}

// unclosedPipe reads the command's output through StdoutPipe and never
// closes it nor calls Wait: the read end stays open in the test process.
// It hands the Cmd to reap, so that the test can wait for it at the end.
func unclosedPipe(reap chan<- *exec.Cmd) runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			if _, err := cmd.StdoutPipe(); err != nil {
				return err
			}
			//execcheck:ignore a runner broken on purpose: it leaves its stdout pipe unread
			if err := cmd.Start(); err != nil {
				return err
			}
			reap <- cmd
			<-ctx.Done()
			// os/exec's watch calls Cancel too, but in its own goroutine,
			// which may run only after this return: the tree would then
			// still run when run returned, a true survivor. Stop it here
			// (the policy's Cancel runs once; the later call reports the
			// first's result), and leak only the goroutine and the pipe.
			_ = cmd.Cancel()
			return ctx.Err()
		}
	}
}

// separateOutputs gives stdout and stderr a pipe each, with the default
// cancel: the holder holds both.
func separateOutputs(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		//execcheck:ignore a runner broken on purpose: the verdict tests need its failure
		return cmd.Run()
	}
}

// lateKill returns as soon as ctx is done and kills the command's group
// later, from a goroutine that then waits for it: run returned with the
// whole tree still running.
func lateKill(after time.Duration) runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				return err
			}
			<-ctx.Done()
			go func() {
				time.Sleep(after)
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				cmd.Wait()
			}()
			return ctx.Err()
		}
	}
}

// stopsOnceStarted starts the command in a process group of its own and,
// at the cancel, waits for the fixture child's first report, then kills
// the group: the fixture always starts, and every cancel comes before
// the descendant proves it runs, as when the cancel window is shorter
// than the fixture's start-up.
func stopsOnceStarted(d *exectest.Descendant) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.Command(d.Argv()[0], d.Argv()[1:]...)
		cmd.Stdout = new(bytes.Buffer) // a pipe, as in most runners
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return err
		}
		<-ctx.Done()
		backoff.Poll(10*time.Second, time.Millisecond, 10*time.Millisecond, d.Started)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		return ctx.Err()
	}
}
