//go:build unix

package systemtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/examples/runners"
)

// A runner runs argv under ctx as code under test would. Each one below is
// a shape found in the field, broken or fixed.
type Runner func(argv []string) func(ctx context.Context) error

func Command(ctx context.Context, argv []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer // not an *os.File: os/exec copies through a pipe
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd
}

// The field's variants, from the downstream-style package.
var (
	DefaultCancel = Adapt(runners.DefaultCancel)
	KillOnly      = Adapt(runners.KillOnly)
	WaitDelayOnly = Adapt(runners.WaitDelayOnly)
	Fixed         = Adapt(runners.GroupKill)
	Policy        = Adapt(runners.Policy)
	Abandoning    = Adapt(runners.Abandoning)
)

func Adapt(run func(context.Context, []string) error) Runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error { return run(ctx, argv) }
	}
}

// neverRuns forgets to run the command at all.
func NeverRuns([]string) func(context.Context) error {
	return func(context.Context) error { return nil }
}

// missingBinary runs a binary that does not exist.
func MissingBinary([]string) func(context.Context) error {
	return func(ctx context.Context) error {
		//execcheck:ignore a binary that does not exist: nothing starts
		return Command(ctx, []string{"/nonexistent/exectest-missing"}).Run()
	}
}

// fileStdout gives the command real files: Wait never blocks on a pipe,
// so the return is prompt, and the descendant is orphaned all the same.
func FileStdout(argv []string) func(context.Context) error {
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
func UnclosedPipe(reap chan<- *exec.Cmd) Runner {
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
func SeparateOutputs(argv []string) func(context.Context) error {
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
func LateKill(after time.Duration) Runner {
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
