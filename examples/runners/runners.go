// Package runners holds the ways to run a command under a context found in
// the field, broken and fixed, as code under test writes them. Each takes
// the command line and collects its output in a bytes.Buffer, which is
// what makes os/exec copy through a pipe.
package runners

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// A Variant is one way to run a command under a context.
type Variant struct {
	Name string
	Run  func(ctx context.Context, argv []string) error
	// Unavailable says why the variant cannot run here, or "": a variant
	// that needs rights the caller may lack (a cgroup of its own) must be
	// reported as not measured, not as a failure of the way it stops the
	// tree. nil: it runs everywhere the fixture does.
	Unavailable func() string
}

// All lists the variants, broken first.
var All = []Variant{
	{Name: "default Cancel", Run: DefaultCancel},
	{Name: "Cancel = Process.Kill", Run: KillOnly},
	{Name: "WaitDelay only", Run: WaitDelayOnly},
	{Name: "Setpgid + group kill + WaitDelay", Run: GroupKill},
	{Name: "cancelpolicy.Apply", Run: Policy},
	{Name: "cancelpolicy.Run", Run: PolicyRun},
	{Name: "cancelpolicy.Run + Graceful", Run: PolicyGraceful, Unavailable: GracefulUnavailable},
	{Name: "cancelpolicy.Run + Contain", Run: PolicyContain, Unavailable: ContainUnavailable},
	{Name: "abandoning select-on-ctx", Run: Abandoning},
}

func command(ctx context.Context, argv []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd
}

// DefaultCancel keeps exec.CommandContext's Cancel, which kills the direct
// child only: a descendant holding the pipe keeps Wait waiting.
func DefaultCancel(ctx context.Context, argv []string) error {
	//execcheck:ignore a runner of the matrix, broken on purpose: the default Cancel
	return command(ctx, argv).Run()
}

// KillOnly says Cancel = Process.Kill out loud: the same flaw.
func KillOnly(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	cmd.Cancel = func() error { return cmd.Process.Kill() }
	//execcheck:ignore a runner of the matrix, broken on purpose: Cancel = Process.Kill
	return cmd.Run()
}

// WaitDelayOnly returns in time, because WaitDelay closes the pipe, but
// leaves the descendant running.
func WaitDelayOnly(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	cmd.WaitDelay = 100 * time.Millisecond
	//execcheck:ignore a runner of the matrix, broken on purpose: WaitDelay alone
	return cmd.Run()
}

// GroupKill is the fix written by hand: a group of its own, SIGKILL to the
// group on cancel, and WaitDelay as a backstop. A descendant that leaves
// the group (setsid) escapes it.
func GroupKill(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 2 * time.Second
	//execcheck:ignore the matrix's hand-written group kill, which misses the launcher shape on purpose (on Windows, where no group exists, it kills the direct child alone)
	return cmd.Run()
}

// Policy is the fix through cancelpolicy.Apply: the hand-written fix,
// with a group signal that never reaches another group.
func Policy(ctx context.Context, argv []string) error {
	cmd := command(ctx, argv)
	if err := cancelpolicy.Apply(cmd); err != nil {
		return err
	}
	//execcheck:ignore the matrix's cancelpolicy.Apply column, which misses the launcher shape on purpose
	return cmd.Run()
}

// PolicyRun is the fix through cancelpolicy.Run: as Policy, and a cancel
// also stops the launcher shape, whose direct child exits at once and
// leaves its work running.
func PolicyRun(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, command(ctx, argv))
}

// PolicyGraceful is PolicyRun with a SIGTERM to the group first and a
// SIGKILL 200ms later, as runners that let a program clean up do: what
// ignores SIGTERM dies by the SIGKILL, within a check's bound.
func PolicyGraceful(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, command(ctx, argv), cancelpolicy.Graceful(syscall.SIGTERM, 200*time.Millisecond))
}

// PolicyContain is PolicyRun in a cgroup of the command's own, killed
// whole on cancel: it also stops the descendants that left the group
// (job control, setsid, double-fork daemons). It needs the right to make
// a cgroup: see ContainUnavailable.
func PolicyContain(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, command(ctx, argv), cancelpolicy.Contain())
}

// GracefulUnavailable says why cancelpolicy.Graceful cannot run here, or
// "": it asks cancelpolicy itself, whose Run refuses it where a process
// can only be terminated (Windows), without starting anything.
var GracefulUnavailable = sync.OnceValue(func() string {
	cmd := exec.Command(trueArgv[0], trueArgv[1:]...)
	if err := cancelpolicy.Run(context.Background(), cmd, cancelpolicy.Graceful(syscall.SIGTERM, time.Millisecond)); err != nil && cmd.Process == nil {
		return runtime.GOOS + ": " + err.Error() // a fact of the system: the matrix lets it pass under EXECTEST_STRICT=1
	}
	return ""
})

// ContainUnavailable says why cancelpolicy.Contain cannot run here (not
// root and not in a delegated cgroup, no cgroup v2, no cgroup.kill), or
// "". It asks cancelpolicy itself, once, by containing /bin/true: the
// error it returns is the one code under test would get.
var ContainUnavailable = sync.OnceValue(func() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cancelpolicy.Run(ctx, exec.CommandContext(ctx, trueArgv[0], trueArgv[1:]...), cancelpolicy.Contain()); err != nil {
		return err.Error()
	}
	return ""
})

// Abandoning gives up on the command instead of waiting for it: it
// returns at once and passes any timing check, and leaks its Wait
// goroutine, os/exec's copy goroutine and the descendant until the
// descendant exits.
func Abandoning(ctx context.Context, argv []string) error {
	cmd := command(context.Background(), argv)
	//execcheck:ignore a runner of the matrix, broken on purpose: it abandons the command
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
