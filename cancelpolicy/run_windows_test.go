package cancelpolicy_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
	"golang.org/x/sys/windows"
)

// The entry points that stop the whole tree on Windows: Run (with and
// without Contain), and Start with Started.Wait, on exec.Command and on
// exec.CommandContext.
var stoppers = []struct {
	name string
	run  runner
}{
	{"Run, exec.Command", func(ctx context.Context, argv []string, out *bytes.Buffer) error {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		return cancelpolicy.Run(ctx, cmd, cancelpolicy.WaitDelay(policyWaitDelay))
	}},
	{"Run, exec.Command, Contain", func(ctx context.Context, argv []string, out *bytes.Buffer) error {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		return cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain(), cancelpolicy.WaitDelay(policyWaitDelay))
	}},
	{"Start and Wait, exec.CommandContext", func(ctx context.Context, argv []string, out *bytes.Buffer) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		// A flag of the caller's is kept next to CREATE_SUSPENDED.
		cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
		s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.WaitDelay(policyWaitDelay))
		if err != nil {
			return err
		}
		if cmd.SysProcAttr.CreationFlags&windows.CREATE_NEW_PROCESS_GROUP == 0 {
			return errors.New("SysProcAttr.CreationFlags: got CREATE_NEW_PROCESS_GROUP dropped, want the caller's flags kept")
		}
		return s.Wait()
	}},
}

// After a cancel, no process of the tree lives 300 ms after the runner
// returned, and it returned within bound: in the waiting shape (the child
// waits for the grandchild that holds its stdout) and in the launcher
// shape (the child exits at once; the job is terminated after its exit).
func TestJobStopsTheTree(t *testing.T) {
	t.Parallel()
	for _, role := range []string{roleWaiting, roleLauncher} {
		for _, s := range stoppers {
			t.Run(role+"/"+s.name, func(t *testing.T) {
				t.Parallel()
				stopped(t, role+", "+s.name, judge(t, role, s.run))
			})
		}
	}
}

// The check can fail: os/exec alone, exec.CommandContext with a
// bytes.Buffer, terminates the direct child only; the grandchild keeps
// the pipe, and Wait with it, well past the cancel.
func TestPlainCommandContextFailsTheCheck(t *testing.T) {
	t.Parallel()
	v := judge(t, roleWaiting, func(ctx context.Context, argv []string, out *bytes.Buffer) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		//execcheck:ignore the negative control: the broken runner the check must fail
		return cmd.Run()
	})
	got := strings.Join(v.problems(), "\n")
	if v.returned || !strings.Contains(got, roleArg+" "+roleGrandchild) {
		t.Errorf("exec.CommandContext + bytes.Buffer: got problems\n%s\nwant Wait still blocked %v after the cancel and the grandchild alive", got, bound)
	}
}

// A command that finishes by itself leaves its descendants running, as on
// Linux: kill-on-close is lifted before the job's handle is closed. With
// Contain, Wait terminates them instead.
func TestFinishedCommand(t *testing.T) {
	t.Parallel()
	for _, contain := range []bool{false, true} {
		name := "descendants left running"
		var opts []cancelpolicy.Option
		if contain {
			name, opts = "Contain: descendants terminated", []cancelpolicy.Option{cancelpolicy.Contain()}
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tr := newTree(t)
			argv := tr.argv(roleFinishing)
			var out bytes.Buffer
			err := retried(func() error {
				out.Reset()
				cmd := exec.Command(argv[0], argv[1:]...)
				cmd.Stdout, cmd.Stderr = &out, &out
				return cancelpolicy.Run(context.Background(), cmd, opts...)
			})
			if err != nil {
				t.Fatalf("Run: got %v, want nil (the child exits 0); output %q", err, out.String())
			}
			time.Sleep(settle)
			left := livingWith(t, tr.token)
			switch {
			case contain && len(left) > 0:
				t.Errorf("Contain: got %v alive %v after Run returned, want the job terminated by Wait", left, settle)
			case !contain && (len(left) != 1 || !strings.Contains(left[0].cmdline, roleArg+" "+roleGrandchild)):
				t.Errorf("got %v alive %v after Run returned, want the grandchild only, still running", left, settle)
			}
		})
	}
}

// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: a caller that dies (here, killed
// while it waits for its command) takes the command's tree with it.
func TestDeadCallerTakesTheTree(t *testing.T) {
	t.Parallel()
	tr := newTree(t)
	argv := tr.argv(roleRunner)
	var out bytes.Buffer
	var caller *exec.Cmd
	err := retried(func() error {
		caller = exec.Command(argv[0], argv[1:]...)
		caller.Stdout, caller.Stderr = &out, &out
		//execcheck:ignore the test kills this caller on purpose: its command's tree must die with the job
		return caller.Start()
	})
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = caller.Wait(); close(waited) }()
	for _, role := range []string{roleRunner, roleGrandchild} {
		if err := awaitFile(tr.report(role), waited); err != nil {
			t.Fatalf("%v; caller output %q", err, out.String())
		}
	}
	if err := caller.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-waited
	deadline := time.Now().Add(bound)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		left := livingWith(t, tr.token)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("got %v alive %v after the caller died, want its command's tree gone with the job's handle", left, bound)
		}
		time.Sleep(delay)
	}
}

// Apply has no job on Windows (it does not start the command, so it
// cannot resume a child created suspended): Cancel terminates the direct
// child only, and WaitDelay ends the Wait that the grandchild's pipe
// holds (Wait then returns the child's exit status, not ErrWaitDelay).
// This is what its documentation says.
func TestApplyTerminatesTheDirectChildOnly(t *testing.T) {
	t.Parallel()
	const wd = 500 * time.Millisecond
	v := judge(t, roleWaiting, func(ctx context.Context, argv []string, out *bytes.Buffer) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cancelpolicy.Apply(cmd, cancelpolicy.WaitDelay(wd)); err != nil {
			return err
		}
		//execcheck:ignore what Apply does on Windows, pinned: it terminates the direct child alone, and the grandchild must outlive the cancel
		return cmd.Run()
	})
	// A job would end the Wait within milliseconds; WaitDelay ends it
	// after wd.
	var exit *exec.ExitError
	if !v.returned || v.after < wd/2 || !errors.As(v.err, &exit) {
		t.Errorf("Apply: got a return %v, %v after the cancel, %v; want the child's exit status, about WaitDelay (%v) after the cancel, within %v", v.returned, v.after, v.err, wd, bound)
	}
	if len(v.living) != 1 || !strings.Contains(v.living[0].cmdline, roleArg+" "+roleGrandchild) {
		t.Errorf("Apply: got %v alive after the Wait, want the grandchild only (the direct child terminated)", v.living)
	}
}

// Graceful is an error on Windows, and Contain with Apply as everywhere;
// neither starts or changes the command.
func TestWindowsBadInput(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, roleArg)
	err = cancelpolicy.Run(context.Background(), cmd, cancelpolicy.Graceful(os.Interrupt, time.Second))
	if err == nil || !strings.Contains(err.Error(), "not supported on windows") {
		t.Errorf("Run with Graceful: got %v, want an error saying it is not supported on windows", err)
	}
	if cmd.Process != nil || cmd.SysProcAttr != nil || cmd.WaitDelay != 0 {
		t.Errorf("Run with Graceful: got process %v, SysProcAttr %+v, WaitDelay %v, want nothing started or changed", cmd.Process, cmd.SysProcAttr, cmd.WaitDelay)
	}
	cmd = exec.CommandContext(context.Background(), exe, roleArg)
	err = cancelpolicy.Apply(cmd, cancelpolicy.Contain())
	if err == nil || !strings.Contains(err.Error(), "use Start or Run") {
		t.Errorf("Apply with Contain: got %v, want an error naming Start or Run", err)
	}
	if cmd.SysProcAttr != nil || cmd.WaitDelay != 0 {
		t.Errorf("Apply with Contain: got SysProcAttr %+v, WaitDelay %v, want the command unchanged", cmd.SysProcAttr, cmd.WaitDelay)
	}
}
