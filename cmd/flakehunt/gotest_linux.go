package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// runGoTest runs go with args in a process group of its own and feeds its
// stdout to agg. An error means that go test could not run at all.
func runGoTest(ctx context.Context, args []string, agg *aggregator, stderr io.Writer) (goTestResult, error) {
	var res goTestResult
	if err := ctx.Err(); err != nil {
		res.interrupted = true
		return res, nil
	}
	cmd := exec.Command("go", args...)
	// Its own group, so that one signal reaches the test binaries too, and
	// so that ^C reaches go test only through us and we know it happened.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = stderr
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	// A process a test leaked into the background may hold go test's
	// stdout or stderr open long after go test exits.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("start go test: %w", err)
	}
	pgid := cmd.Process.Pid

	decoded := make(chan error, 1)
	go func() {
		err := decodeEvents(pr, agg, stderr)
		// Keep reading whatever follows an unreadable stream, so that go
		// test never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, pr)
		decoded <- err
	}()

	// exited is set, under mu, between go test's exit and its reaping: while
	// it is a zombie its pid, our pgid, cannot be reused, so a signal sent
	// under mu with exited false reaches go test's group and nothing else.
	var (
		mu          sync.Mutex
		exited      bool
		interrupted bool
	)
	kill := func(sig syscall.Signal) {
		if pgid > 1 && pgid != syscall.Getpgrp() {
			_ = syscall.Kill(-pgid, sig)
		}
	}
	// signalGroup reports whether it signalled: false once go test exited.
	signalGroup := func(sig syscall.Signal) bool {
		mu.Lock()
		defer mu.Unlock()
		if exited {
			return false
		}
		interrupted = true
		agg.interrupted.Store(true)
		kill(sig)
		return true
	}
	grace := interruptGrace
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		signalGroup(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(grace):
			if signalGroup(syscall.SIGKILL) {
				fmt.Fprintf(stderr, "flakehunt: %s %v after SIGINT: killed its process group\n", escalated, grace)
			}
		}
	}()

	waitExit(pgid)
	mu.Lock()
	if interrupted {
		// go test waits for its test binaries, so what is left in its group
		// now escaped it; we asked everyone to stop, so it goes too.
		kill(syscall.SIGKILL)
	}
	exited = true
	mu.Unlock()
	close(done)

	waitErr := cmd.Wait()
	pw.Close()
	res.decodeErr = <-decoded
	res.interrupted = interrupted
	var exit *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exit):
		res.exitCode = exit.ExitCode()
		if res.exitCode < 0 {
			res.exitCode = 1 // killed by a signal
		}
	case errors.Is(waitErr, exec.ErrWaitDelay):
		// go test itself exited 0; only a straggler held the pipes.
	default:
		return res, fmt.Errorf("wait for go test: %w", waitErr)
	}
	return res, nil
}

// waitExit blocks until process pid has exited, without reaping it.
func waitExit(pid int) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}
