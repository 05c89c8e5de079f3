package exectest_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/exectest/exectest"
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

// defaultCancel keeps exec.CommandContext's Cancel: kill the direct child.
func defaultCancel(argv []string) func(context.Context) error {
	return func(ctx context.Context) error { return command(ctx, argv).Run() }
}

// killOnly says Cancel = Process.Kill out loud: the same flaw.
func killOnly(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := command(ctx, argv)
		cmd.Cancel = func() error { return cmd.Process.Kill() }
		return cmd.Run()
	}
}

// waitDelayOnly returns in time but leaves the descendant running.
func waitDelayOnly(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := command(ctx, argv)
		cmd.WaitDelay = 100 * time.Millisecond
		return cmd.Run()
	}
}

// fixed is the hand-written fix: own group, group SIGKILL, WaitDelay.
func fixed(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := command(ctx, argv)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 2 * time.Second
		return cmd.Run()
	}
}

// policy is the fix through the toolkit.
func policy(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := command(ctx, argv)
		exectest.ApplyCancelPolicy(cmd)
		return cmd.Run()
	}
}

// neverRuns forgets to run the command at all.
func neverRuns([]string) func(context.Context) error {
	return func(context.Context) error { return nil }
}

// missingBinary runs a binary that does not exist.
func missingBinary([]string) func(context.Context) error {
	return func(ctx context.Context) error {
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
		return cmd.Run()
	}
}

// abandoning is the common wrapper that gives up on the command instead of
// waiting for it: it returns at once and passes any timing check, and
// leaks its Wait goroutine, os/exec's copy goroutine and the descendant.
// Its Wait goroutine reaps the child in the end, as GODEBUG=execwait=2
// wants.
func abandoning(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := command(context.Background(), argv)
		if err := cmd.Start(); err != nil {
			return err
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			cmd.Process.Kill()
			return ctx.Err()
		}
	}
}

// unclosedPipe reads the command's output through StdoutPipe and never
// closes it nor calls Wait: the read end stays open in the test process.
// It hands the Cmd to reap, so that the test can wait for it at the end.
func unclosedPipe(reap chan<- *exec.Cmd) runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			exectest.ApplyCancelPolicy(cmd)
			if _, err := cmd.StdoutPipe(); err != nil {
				return err
			}
			if err := cmd.Start(); err != nil {
				return err
			}
			reap <- cmd
			<-ctx.Done()
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
		return cmd.Run()
	}
}
