//go:build unix

// Package pipereturned holds output pipes returned by a runner called
// through an interface (reduced from an AI-agent executor): the caller
// reads them to EOF, then calls the Wait it was given. execcheck does
// not see which function the interface call reaches; os/exec has every
// read end before Wait.
package pipereturned

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
)

// Runner starts a command and hands back its output and its Wait.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) (io.Reader, func() error, error)
}

type execRunner struct{}

// Run: the caller reads stdout through the interface.
func (execRunner) Run(ctx context.Context, name string, args ...string) (io.Reader, func() error, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil { // want `^hang: stdout from StdoutPipe\(\) is returned by \(execRunner\).Run, whose callers execcheck does not see \(no call in the package reaches it\): os/exec has them end their reads before Wait, so they read until EOF, which WaitDelay does not close and nothing bounds Wait; a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
		return nil, nil, err
	}
	return stdout, cmd.Wait, nil
}

// Streams are a command's two output pipes.
type Streams struct {
	Stderr io.Reader
	Stdout io.Reader
}

type streamRunner struct{}

// Run: the pipes go back in a struct, read through its fields.
func (streamRunner) Run(ctx context.Context, name string) (Streams, func() error, error) {
	cmd := exec.CommandContext(ctx, name)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return Streams{}, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Streams{}, nil, err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(io.ReadAll\)`
		return Streams{}, nil, err
	}
	return Streams{Stderr: stderr, Stdout: stdout}, cmd.Wait, nil
}

// Executor runs a Runner.
type Executor struct {
	runner Runner
	codex  interface {
		Run(ctx context.Context, name string) (Streams, func() error, error)
	}
}

func (e *Executor) Claude(ctx context.Context, prompt string) (string, error) {
	r := e.runner
	if r == nil {
		r = execRunner{}
	}
	out, wait, err := r.Run(ctx, "claude", "-p", prompt)
	if err != nil {
		return "", err
	}
	b, _ := io.ReadAll(out)
	return string(b), wait()
}

func (e *Executor) Codex(ctx context.Context) (string, error) {
	c := e.codex
	if c == nil {
		c = streamRunner{}
	}
	s, wait, err := c.Run(ctx, "codex")
	if err != nil {
		return "", err
	}
	go func() {
		sc := bufio.NewScanner(s.Stderr)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
	}()
	b, _ := io.ReadAll(s.Stdout)
	return string(b), wait()
}

// firstLine's caller is seen: it reads one line, then waits. The read
// is no read to EOF.
func firstLine(ctx context.Context) (string, error) {
	out, wait, err := start(ctx)
	if err != nil {
		return "", err
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	return line, wait()
}

func start(ctx context.Context) (io.Reader, func() error, error) {
	cmd := exec.CommandContext(ctx, "git", "log")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child`
		return nil, nil, err
	}
	return out, cmd.Wait, nil
}

var _ = firstLine
