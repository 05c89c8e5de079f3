//go:build unix

// Package readloop holds output pipes read by hand: a Read loop until an
// error, and readers returned from the helper that starts the command.
// Both read until EOF, which lasts as long as any descendant holds the
// pipe.
package readloop

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"sync"
	"time"
)

// ReadLoop is reduced from real code: goroutines read StdoutPipe and
// StderrPipe with Read until an error, and are waited for before
// cmd.Wait. It was taken for an orphan with "no output pipe".
func ReadLoop(ctx context.Context, argv []string, sink func([]byte)) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(a loop of stdout.Read\), which WaitDelay does not close`
		return err
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		buf := make([]byte, 4096)
		for {
			n, err := stdout.Read(buf)
			sink(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		r := bufio.NewReader(stderr)
		for {
			line, err := r.ReadString('\n')
			sink([]byte(line))
			if err != nil {
				return
			}
		}
	}()
	wg.Wait()
	return cmd.Wait()
}

// Header reads once, not until EOF, and Wait closes the pipe.
func Header(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child .*\(no output pipe\)`
		return nil, err
	}
	buf := make([]byte, 16)
	n, _ := stdout.Read(buf)
	return buf[:n], cmd.Wait()
}

// startTool starts the command and returns its stdout for the caller to
// read (reduced from real code: the reader was not followed).
func startTool(ctx context.Context, argv []string) (*exec.Cmd, io.ReadCloser, error) { // want startTool:`^execcheck\[result: \[made\(1\) runs:Start\] result 1: stdout of the command returned\]$`
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return cmd, out, nil
}

// Tool reads what startTool returns until EOF.
func Tool(ctx context.Context, argv []string) ([]string, error) {
	cmd, out, err := startTool(ctx, argv) // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\)`
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, cmd.Wait()
}

// tool keeps its command in a field and returns only the reader.
type tool struct{ cmd *exec.Cmd }

func (t *tool) start(ctx context.Context, argv []string) (io.Reader, error) {
	t.cmd = exec.CommandContext(ctx, argv[0], argv[1:]...)
	out, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	return out, t.cmd.Start() // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(io.ReadAll\)`
}

// Slurp reads what start returns until EOF.
func Slurp(ctx context.Context, argv []string) ([]byte, error) {
	t := &tool{}
	out, err := t.start(ctx, argv)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(out)
	if err != nil {
		return nil, err
	}
	return b, t.cmd.Wait()
}
