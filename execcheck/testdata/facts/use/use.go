//go:build unix

// Package use runs commands through package lib: execcheck knows what lib
// does from facts.
package use

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"

	"example.com/t/facts/killer"
	"example.com/t/facts/lib"
)

// Made runs a command lib made.
func Made(ctx context.Context, argv []string) error {
	return lib.Command(ctx, argv[0], argv[1:]...).Run() // want `^hang: stdout is a \*bytes.Buffer`
}

// Hardened runs git hardened by lib: ok.
func Hardened(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "git", "fetch")
	lib.Harden(cmd)
	cmd.Stdout = new(bytes.Buffer)
	return cmd.Run()
}

// HardenedAny hardens a command the caller chose: a launcher's group
// outlives lib's Cancel.
func HardenedAny(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	lib.Harden(cmd)
	return cmd.Run() // want `^launcher: Cancel kills the group \(syscall.Kill\(-pgid, syscall.SIGKILL\) \(in KillGroup\)\)`
}

// ByHelper runs the command through lib.Run: the site is the call.
func ByHelper(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	return lib.Run(cmd) // want `^hang: .*fix: in Run, run it with cancelpolicy.Run\(ctx, cmd\)$`
}

// KillByPid kills the group through lib's pid helper, by hand, after the
// context is done.
func KillByPid(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	if err := lib.Start(cmd); err != nil {
		return err
	}
	defer context.AfterFunc(ctx, func() { lib.KillGroup(cmd.Process.Pid) })()
	return cmd.Wait()
}

// Session starts a command in a lib.Session and kills it when ctx is
// done: the kill, in another package's method, reaches the child only.
func Session(ctx context.Context, argv []string) error {
	s, err := lib.StartSession(exec.Command(argv[0], argv[1:]...)) // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(s.Command.Process.Kill\(\) \(in StartSession\)\)`
	if err != nil {
		return err
	}
	<-ctx.Done()
	return s.Kill()
}

// StepBackground runs a command of lib's under a step whose context is
// never done: no cancel.
func StepBackground(name string) error {
	return lib.StepCommand(&lib.Step{Ctx: context.Background()}, name).Run()
}

// StepCancellable: the step's context is the caller's.
func StepCancellable(ctx context.Context, name string) error {
	s := &lib.Step{Ctx: ctx}
	return lib.StepCommand(s, name).Run() // want `^orphan: a cancel kills only the direct child.*fix: run it with cancelpolicy.Run\(s.Ctx, cmd\)`
}

// Watched kills the group through package killer, which runs no command
// of its own: the kill is known from killer's fact, and the site is ok.
func Watched(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = new(bytes.Buffer)
	if err := cmd.Start(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { killer.KillGroup(cmd.Process.Pid) })
	defer stop()
	return cmd.Wait()
}
