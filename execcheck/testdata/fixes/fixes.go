//go:build unix

// Package fixes holds the findings -fix rewrites to cancelpolicy.Run.
package fixes

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

type runner struct {
	ctx context.Context
}

// Run: cmd.Run() becomes cancelpolicy.Run(ctx, cmd).
func Run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil { // want `^hang: `
		return "", err
	}
	return out.String(), nil
}

// Field: the context is a field, in scope at the run as it was at the
// creation.
func (r *runner) Field(argv []string) error {
	cmd := exec.CommandContext(r.ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^orphan: .*fix: run it with cancelpolicy.Run\(r.ctx, cmd\)$`
}

// Output keeps what Output returns and the stderr it keeps in ExitError.
func Output(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status", "--short")
	cmd.Dir = dir
	out, err := cmd.Output() // want `^hang: the output is collected by Output\(\)`
	return out, err
}

// OutputStderr sets Stderr: Output keeps nothing in ExitError then.
func OutputStderr(ctx context.Context, stderr *bytes.Buffer) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status")
	cmd.Stderr = stderr
	return cmd.Output() // want `^hang: `
}

// Combined is made and run in one expression.
func Combined(ctx context.Context, script string) (string, error) {
	out, err := exec.CommandContext(ctx, "sh", "-c", script).CombinedOutput() // want `^hang: `
	return string(out), err
}

// ReturnOutput returns what Output returns: the rewrite keeps the stderr
// of a failed command in ExitError.Stderr, as Output does.
func ReturnOutput(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "log", "-1")
	cmd.Dir = dir
	return cmd.Output() // want `^hang: `
}

// Named returns Output's results through named results: the rewrite
// sets err, the result.
func Named(ctx context.Context, dir string) (out []byte, err error) {
	fetch := exec.CommandContext(ctx, "git", "fetch")
	fetch.Dir = dir
	fetch.Stderr = os.Stderr
	if out, err = fetch.Output(); err != nil { // want `^hang: `
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "git", "status")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	return cmd.Output() // want `^hang: `
}

// Reassigned assigns to variables declared before, one of them in an
// outer block; a name the rewrite would take is a parameter.
func Reassigned(ctx context.Context, stdout string) (string, error) {
	var out []byte
	var err error
	for range 2 {
		cmd := exec.CommandContext(ctx, "sh", "-c", stdout)
		out, err = cmd.Output() // want `^hang: `
	}
	return string(out), err
}

// Dropped drops what Output returns: it becomes cancelpolicy.Run.
func Dropped(ctx context.Context) {
	exec.CommandContext(ctx, "git", "fetch").Output() // want `^hang: `
}

// NoError drops the error, and with it the stderr Output keeps.
func NoError(ctx context.Context) string {
	cmd := exec.CommandContext(ctx, "git", "pull")
	out, _ := cmd.Output() // want `^hang: `
	return string(out)
}

// Switched is in a case clause.
func Switched(ctx context.Context, kind string) ([]byte, error) {
	switch kind {
	case "log":
		cmd := exec.CommandContext(ctx, "git", "log")
		out, err := cmd.CombinedOutput() // want `^hang: `
		return out, err
	}
	return nil, nil
}

// InIf runs Output in an if's init, where no statement can go before
// it: a function literal is called in its place.
func InIf(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status")
	if out, err := cmd.Output(); err == nil { // want `^hang: `
		return out, nil
	}
	return nil, nil
}

// Applied keeps the options of Apply.
func Applied(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if err := cancelpolicy.Apply(cmd, cancelpolicy.Graceful(syscall.SIGTERM, time.Second)); err != nil {
		return err
	}
	return cmd.Run() // want `^launcher: `
}

// Handwritten is the hand-written fix: cancelpolicy.Run replaces its
// Cancel and keeps its WaitDelay.
func Handwritten(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 3 * time.Second
	return cmd.Run() // want `^launcher: `
}

// Shadowed: the context given to CommandContext is not the ctx in scope
// at the run: no rewrite.
func Shadowed(parent context.Context, argv []string) error {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	{
		ctx := context.Background()
		_ = ctx
		return cmd.Run() // want `^orphan: `
	}
}

// Watched by hand: the rewrite would not be mechanical.
func Watched(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	go func() {
		<-ctx.Done()
		cmd.Process.Kill()
	}()
	return cmd.Run() // want `^orphan: `
}

// Started: a rewrite of Start would change every Wait after it.
func Started(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = new(bytes.Buffer)
	if err := cmd.Start(); err != nil { // want `^hang: .*fix: start it with cancelpolicy.Start\(ctx, cmd\) and call the Wait it returns$`
		return err
	}
	return cmd.Wait()
}

// MethodValue runs Output through a method value: found at the call, and
// not rewritten there, since the command is written elsewhere.
func MethodValue(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status")
	cmd.Dir = dir
	output := cmd.Output
	return output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait.*fix: collect the output in a bytes.Buffer set as cmd.Stdout and run cancelpolicy.Run\(ctx, cmd\)$`
}

// MethodValueRun: Run through a method value, with a kill of the child
// only.
func MethodValueRun(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = new(bytes.Buffer)
	run := cmd.Run
	return run() // want `^hang: stdout is a \*bytes.Buffer`
}

// MethodExpression runs Output as a method expression.
func MethodExpression(ctx context.Context, dir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "status")
	cmd.Dir = dir
	return (*exec.Cmd).Output(cmd) // want `^hang: the output is collected by Output\(\) and nothing bounds Wait`
}
