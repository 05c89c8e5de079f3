package waitaside

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"time"
)

// LifecycleJoined is reduced from an agent daemon's ACP backends: the
// lifecycle goroutine defers Wait, and before it ends (and so before
// the deferred Wait) it cancels and waits for the readers, which read
// until EOF: a descendant holding a pipe keeps it waiting.
func LifecycleJoined(ctx context.Context, prog string, done chan<- error) error {
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		cancel()
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stderr is read from StderrPipe\(\) until EOF \(io.Copy\)`
		cancel()
		return err
	}
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		_, _ = io.Copy(os.Stderr, stderr)
	}()
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			_ = sc.Text()
		}
	}()
	go func() {
		defer func() { done <- cmd.Wait() }()
		<-ctx.Done()
		cancel()
		<-readerDone
		<-stderrDone
	}()
	return nil
}

// LifecycleDrained: the same, but the lifecycle waits for the readers
// only up to a grace: the deferred Wait runs beside any reader still
// held, closes the pipes once the direct child exits, and ends it.
func LifecycleDrained(ctx context.Context, prog string, done chan<- error) error {
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child`
		cancel()
		return err
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			_ = sc.Text()
		}
	}()
	go func() {
		defer func() { done <- cmd.Wait() }()
		<-ctx.Done()
		cancel()
		drain, stop := context.WithTimeout(context.Background(), 2*time.Second)
		defer stop()
		select {
		case <-readerDone:
		case <-drain.Done():
		}
	}()
	return nil
}
