package cancelpolicy_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

const (
	// waiting: the direct child waits for its descendant.
	waiting = `/bin/sleep 20 & echo $! >"$1"; wait`
	// launcher: the direct child starts the descendant and exits at once.
	launcher = `/bin/sleep 20 & echo $! >"$1"; exit 0`
	// termIgnoring: the shell and its sleep ignore SIGTERM (an ignored
	// signal stays ignored across exec).
	termIgnoring = `trap '' TERM; /bin/sleep 20 & echo $! >"$1"; wait`
)

func TestRunStopsWaitingShape(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(ctx, t, waiting)
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.WaitDelay(waitDelay))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	cancel()
	begin := time.Now()
	err = s.Wait()
	if elapsed := time.Since(begin); elapsed > bound {
		t.Errorf("waiting shape: Wait returned %v after the cancel, want within %v (WaitDelay %v)", elapsed, bound, waitDelay)
	}
	if err == nil {
		t.Errorf("waiting shape: Wait: got nil, want the kill's error")
	}
	awaitDead(t, d, "waiting shape")
}

// A command from exec.Command has no context for os/exec to watch: Start's
// watch alone stops it.
func TestStartWithoutCommandContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(context.Background(), t, waiting)
	cmd = exec.Command(cmd.Path, cmd.Args[1:]...)
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.WaitDelay(waitDelay))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	stopAndCheck(t, "exec.Command, waiting shape", cancel, s.Wait, d, 0)
}

// The direct child has exited and been reaped when the cancel comes:
// os/exec no longer calls Cancel, and only the context watch reaches the
// group. Fails with the watch disabled: Wait returns after WaitDelay and
// the sleep runs on.
func TestRunStopsLauncherShape(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(ctx, t, launcher)
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.WaitDelay(waitDelay))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	leader := cmd.Process.Pid
	poll(t, "the launcher's exit", func() bool { return zombie(leader) })
	waited := make(chan error, 1)
	go func() { waited <- s.Wait() }()
	poll(t, "the launcher's reap by Wait", func() bool { return reaped(leader) })
	cancel()
	begin := time.Now()
	select {
	case err := <-waited:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("launcher shape: Wait: got %v, want context.Canceled", err)
		}
	case <-time.After(bound):
		t.Errorf("launcher shape: Wait: still waiting %v after the cancel, want a return within it (WaitDelay %v)", bound, waitDelay)
		<-waited
	}
	t.Logf("launcher shape: Wait returned %v after the cancel", time.Since(begin))
	awaitDead(t, d, "launcher shape")
}

// Apply alone stops the waiting shape through Cancel.
func TestApplyStopsWaitingShape(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(ctx, t, waiting)
	if err := cancelpolicy.Apply(cmd, cancelpolicy.WaitDelay(waitDelay)); err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore tests Apply on the waiting shape, which it stops
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	stopAndCheck(t, "Apply, waiting shape", cancel, cmd.Wait, d, 0)
	if err := cmd.Cancel(); !errors.Is(err, nil) {
		t.Errorf("Cancel again: got %v, want the first Cancel's nil", err)
	}
}

// A tree that ignores SIGTERM dies by the SIGKILL after the grace, not by
// the WaitDelay backstop (which would leave the sleep running). Fails with
// the later SIGKILL disabled.
func TestGracefulKillsTermIgnorer(t *testing.T) {
	t.Parallel()
	const grace = 300 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(ctx, t, termIgnoring)
	err := cancelpolicy.Apply(cmd, cancelpolicy.Graceful(syscall.SIGTERM, grace), cancelpolicy.WaitDelay(waitDelay))
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore tests Apply with Graceful on the waiting shape, which it stops
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	stopAndCheck(t, "graceful, TERM ignored", cancel, cmd.Wait, d, grace)
}

// A tree that obeys SIGTERM ends by it, long before the grace is over.
func TestGracefulSendsSignalFirst(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, pidFile := shell(ctx, t, waiting)
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.Graceful(syscall.SIGTERM, time.Minute), cancelpolicy.WaitDelay(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	cancel()
	begin := time.Now()
	err = s.Wait()
	if elapsed := time.Since(begin); elapsed > bound {
		t.Errorf("graceful, TERM obeyed: Wait returned %v after the cancel, want within %v (grace 1m)", elapsed, bound)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("graceful, TERM obeyed: Wait: got %v, want death by SIGTERM", err)
	}
	awaitDead(t, d, "graceful, TERM obeyed")
}

// A member that ignores the graceful signal and holds none of the
// command's pipes does not keep os/exec's Wait waiting: Wait must still
// not return before the SIGKILL after the grace, or the member outlives
// it (the background job of sh -c ignores SIGINT). Before, Wait returned
// as soon as the shell died of the SIGINT.
func TestGracefulWaitOutlastsMemberIgnoringTheSignal(t *testing.T) {
	t.Parallel()
	const grace = 300 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pidFile := filepath.Join(t.TempDir(), "descendant.pid")
	cmd := exec.Command("/bin/sh", "-c", waiting, "sh", pidFile) // no pipe: /dev/null
	s, err := cancelpolicy.Start(ctx, cmd, cancelpolicy.Graceful(syscall.SIGINT, grace))
	if err != nil {
		t.Fatal(err)
	}
	d := awaitDescendant(t, pidFile)
	cancel()
	begin := time.Now()
	err = s.Wait()
	if !d.doomed() {
		t.Errorf("Wait returned %v after the cancel (%v), with the descendant %d, which ignores SIGINT, alive and not killed: want the SIGKILL sent %v after the cancel first", time.Since(begin), err, d.pid, grace)
	}
	awaitDead(t, d, "graceful SIGINT, ignored by a background job")
}

// stopAndCheck cancels, and fails t unless wait returns between atLeast
// and bound after it, with the direct child killed by SIGKILL, and the
// descendant d dies.
func stopAndCheck(t *testing.T, what string, cancel func(), wait func() error, d descendant, atLeast time.Duration) {
	t.Helper()
	cancel()
	begin := time.Now()
	err := wait()
	if elapsed := time.Since(begin); elapsed < atLeast || elapsed > bound {
		t.Errorf("%s: Wait returned %v after the cancel, want between %v and %v (WaitDelay %v)", what, elapsed, atLeast, bound, waitDelay)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("%s: Wait: got %v, want death by SIGKILL", what, err)
	}
	awaitDead(t, d, what)
}
