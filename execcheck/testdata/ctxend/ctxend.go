//go:build unix

// Package ctxend holds watches that kill the group on one way a context
// ends only, reduced from snclient: a guard that kills the group when
// the context's deadline passed, and returns when it was cancelled. A
// cancel of the command's context (a caller's) then gets the default
// Cancel alone.
package ctxend

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

func makeCmd(ctx context.Context, script string) *exec.Cmd { // want makeCmd:`^execcheck\[result: \[made\(1\) group\]\]$`
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

func killGroup(pid int) { // want killGroup:`^execcheck\[pid param 0: group:other, group:KILL\]$`
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	time.Sleep(100 * time.Millisecond)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// guard is snclient's before the fix: a timeout kills the group, a
// cancel is taken for the command's normal end.
func guard(ctx context.Context, pid int) { // want guard:`^execcheck\[pid param 1: group:other, group:KILL\]$`
	<-ctx.Done()
	switch err := ctx.Err(); {
	case errors.Is(err, context.DeadlineExceeded):
		killGroup(pid)
	case errors.Is(err, context.Canceled):
		return
	}
}

// guardBoth is the fix: the group is killed on either end.
func guardBoth(ctx context.Context, pid int) { // want guardBoth:`^execcheck\[pid param 1: group:other, group:KILL, group:other, group:KILL\]$`
	<-ctx.Done()
	switch err := ctx.Err(); {
	case errors.Is(err, context.DeadlineExceeded):
		killGroup(pid)
	case errors.Is(err, context.Canceled):
		killGroup(pid)
	}
}

func run(ctx context.Context, cmd *exec.Cmd, timeout time.Duration) (string, error) { // want run:`^execcheck\[param 1: \[copypipe kills\(group:other, group:KILL\) runs:Start waited\]\]$`
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go guard(ctx, cmd.Process.Pid)
	err := cmd.Wait()
	return out.String(), err
}

// TimeoutOnly is the pair's before side: a cancel of the caller's
// context kills sh alone, and Wait waits for the pipe.
func TimeoutOnly(ctx context.Context, script string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := makeCmd(ctx, script)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: .*a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\).*; the group kill by hand \(syscall.Kill\(-pid, syscall.SIGTERM\) \(in killGroup\) \(in guard\)\) comes only when the deadline passed \(errors.Is\(err, context.DeadlineExceeded\)\), and the command's context can end the other way`
		return "", err
	}
	go guard(ctx, cmd.Process.Pid)
	err := cmd.Wait()
	return out.String(), err
}

// BothEnds is the fix: ok.
func BothEnds(ctx context.Context, script string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := makeCmd(ctx, script)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go guardBoth(ctx, cmd.Process.Pid)
	err := cmd.Wait()
	return out.String(), err
}

// OwnTimeout: the command's context can end only at its deadline (or
// by the deferred cancel after Wait), so the guard comes with every
// cancel: ok.
func OwnTimeout(script string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := makeCmd(ctx, script)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return err
	}
	go guard(ctx, cmd.Process.Pid)
	return cmd.Wait()
}

// Returned: the guard returns on a cancel before its kill (an if whose
// body returns), the same as snclient's switch.
func Returned(ctx context.Context, script string) error {
	cmd := makeCmd(ctx, script)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: .*comes only when the deadline passed \(ctx.Err\(\) != context.DeadlineExceeded\)`
		return err
	}
	go func() {
		<-ctx.Done()
		if ctx.Err() != context.DeadlineExceeded {
			return
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}()
	return cmd.Wait()
}

// CancelOnly kills the group on a cancel, not at the deadline its own
// context.WithTimeout sets: a timeout gets the default Cancel alone.
func CancelOnly(script string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := makeCmd(ctx, script)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: .*comes only when the context was cancelled before its deadline \(errors.Is\(ctx.Err\(\), context.Canceled\)\)`
		return err
	}
	go func() {
		<-ctx.Done()
		if errors.Is(ctx.Err(), context.Canceled) {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	return cmd.Wait()
}

// Helper hands the command to a helper that runs the guard, as
// snclient's runExternalCommand: the site is the helper's call.
func Helper(ctx context.Context, script string) (string, error) {
	cmd := makeCmd(ctx, script)
	return run(ctx, cmd, time.Minute) // want `^hang: .*comes only when the deadline passed`
}
