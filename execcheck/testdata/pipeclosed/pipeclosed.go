//go:build unix

// Package pipeclosed holds StdoutPipe reads ended by a Close of the pipe
// made by hand apart from them (reduced from a hook runner: a timer
// kills the hook and closes the pipe). The reads, and the Wait after
// them, end then; the kill reaches only the direct child.
package pipeclosed

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Hook: the timer closes the pipe's read end.
func Hook(hook string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, hook)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child .*Wait returns in bounded time \(stdout.Close\(\) \(pipeclosed.go:\d+\), in a function literal apart from the reads, closes the pipe by hand: the reads end then\)`
		return err
	}
	timer := time.AfterFunc(timeout, func() {
		_ = cmd.Process.Kill()
		_ = stdout.Close()
	})
	defer timer.Stop()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		fmt.Println(sc.Text())
	}
	return cmd.Wait()
}

// Deferred: the pipe is closed only when the function returns, after
// the reads: they last while a descendant holds it.
func Deferred(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	defer func() { _ = stdout.Close() }()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		fmt.Println(sc.Text())
	}
	return cmd.Wait()
}

// ReadThenClose: the goroutine that reads closes the pipe after its
// reads: no bound.
func ReadThenClose(ctx context.Context, prog string) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
		_ = stdout.Close()
	}()
	<-done
	return cmd.Wait()
}

// Ranged: the Close is in a callback called where it stands (a clean-up
// over every step), not apart from the reads: no bound.
func Ranged(ctx context.Context, prog string, each func(func())) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		fmt.Println(sc.Text())
	}
	each(func() { _ = stdout.Close() })
	return cmd.Wait()
}

// OnceWatcher (reduced from an agent SDK's bash tool): the watcher
// closes both pipes through a local closure and a sync.Once when the
// context is done; the reads, joined before Wait, end then.
func OnceWatcher(ctx context.Context, command string) error {
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child .*closes the pipe by hand: the reads end then`
		return err
	}
	var once sync.Once
	closePipes := func() {
		once.Do(func() {
			_ = stdout.Close()
			_ = stderr.Close()
		})
	}
	stop := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			closePipes()
		case <-stop:
		}
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		consume(stdout)
	}()
	go func() {
		defer wg.Done()
		consume(stderr)
	}()
	wg.Wait()
	close(stop)
	return cmd.Wait()
}

func consume(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fmt.Fprintln(os.Stdout, sc.Text())
	}
}

// ClosureAfterReads: the same closure, called only where the function
// stands, after the reads and deferred: no bound.
func ClosureAfterReads(ctx context.Context, command string) error {
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	var once sync.Once
	closePipe := func() {
		once.Do(func() { _ = stdout.Close() })
	}
	defer closePipe()
	consume(stdout)
	closePipe()
	return cmd.Wait()
}
