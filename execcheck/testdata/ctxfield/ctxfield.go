//go:build unix

// Package ctxfield holds contexts passed in a field of a struct to the
// function that makes the command (reduced from real code: a step's
// context in a StepContext, context.Background() in the tests). A field
// set to a context that is never done is no cancel; one that can be
// done, or one execcheck cannot read, is a cancel.
package ctxfield

import (
	"context"
	"os/exec"
)

// StepContext carries a step's context and directory.
type StepContext struct {
	Ctx context.Context
	Dir string
}

// stepCmd makes the command under the step's context.
func stepCmd(sctx *StepContext, name string, args ...string) *exec.Cmd { // want stepCmd:`^execcheck\[result: \[made\(1\)\]\]$`
	cmd := exec.CommandContext(sctx.Ctx, name, args...)
	cmd.Dir = sctx.Dir
	return cmd
}

// stepValue is stepCmd with the struct passed by value.
func stepValue(sctx StepContext, name string) *exec.Cmd { // want stepValue:`^execcheck\[result: \[made\(1\)\]\]$`
	return exec.CommandContext(sctx.Ctx, name)
}

// Background: the test's context is never done.
func Background(name string) error {
	sctx := &StepContext{Ctx: context.Background(), Dir: "."}
	cmd := stepCmd(sctx, name, "status")
	return cmd.Run()
}

// Literal: the literal passed at the call.
func Literal(name string) error {
	return stepCmd(&StepContext{Ctx: context.TODO()}, name).Run()
}

// ByValue: a struct value, through a function taking it by value.
func ByValue(name string) error {
	sctx := StepContext{Ctx: context.Background()}
	return stepValue(sctx, name).Run()
}

// Local: the field read in the function that makes the command.
func Local(name string) error {
	sctx := StepContext{Ctx: context.Background()}
	return exec.CommandContext(sctx.Ctx, name).Run()
}

// Cancellable: the caller's context in the field.
func Cancellable(ctx context.Context, name string) error {
	sctx := &StepContext{Ctx: ctx}
	return stepCmd(sctx, name).Run() // want `^orphan: a cancel kills only the direct child`
}

// Passed: the struct is the caller's: its context may be done.
func Passed(sctx *StepContext, name string) error {
	return stepCmd(sctx, name).Run() // want `^orphan: a cancel kills only the direct child`
}

// Reassigned: the field replaced after the literal.
func Reassigned(ctx context.Context, name string) error {
	sctx := &StepContext{Ctx: context.Background()}
	sctx.Ctx = ctx
	return stepCmd(sctx, name).Run() // want `^orphan: a cancel kills only the direct child`
}

// Unread: a struct from a call execcheck does not read.
func Unread(name string) error {
	return stepCmd(current(), name).Run() // want `^orphan: a cancel kills only the direct child`
}

func current() *StepContext { return &StepContext{Ctx: context.Background()} }

// stepOwn sets the step's context itself: the caller's field is not
// the one the command gets.
func stepOwn(sctx *StepContext, ctx context.Context, name string) *exec.Cmd { // want stepOwn:`^execcheck\[result: \[made\(1\)\]\]$`
	sctx.Ctx = ctx
	return exec.CommandContext(sctx.Ctx, name)
}

// OwnField: a step whose context is never done, given a context that
// can be done by the constructor.
func OwnField(ctx context.Context, name string) error {
	return stepOwn(&StepContext{Ctx: context.Background()}, ctx, name).Run() // want `^orphan: a cancel kills only the direct child`
}

// stepDetached sets a context that is never done.
func stepDetached(sctx *StepContext, name string) *exec.Cmd { // want stepDetached:`^execcheck\[result: \[made\(1\)\]\]$`
	sctx.Ctx = context.Background()
	return exec.CommandContext(sctx.Ctx, name)
}

// Detached: the caller's context is replaced by one that is never done.
func Detached(ctx context.Context, name string) error {
	return stepDetached(&StepContext{Ctx: ctx}, name).Run()
}
