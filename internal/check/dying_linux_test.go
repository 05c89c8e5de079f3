package check

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
)

// stoppedWithTermPending starts a sleep, stops it and sends it SIGTERM:
// the signal stays pending, and the process dying (procstate.Dying), until
// SIGCONT. It stands for a killed process that a loaded machine has not
// given a processor to run its exit yet.
func stoppedWithTermPending(t *testing.T) (*exec.Cmd, proc.Identity) {
	t.Helper()
	//execcheck:ignore a sleep the test stops, continues and waits for itself
	cmd := exec.Command("/bin/sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start /bin/sleep: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done })
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGSTOP)
	if !backoff.Poll(2*time.Second, time.Millisecond, 20*time.Millisecond, func() bool { s, err := id.Stat(); return err == nil && s.State == "T" }) {
		t.Fatalf("sleep pid %d: got no stop within 2s", id.PID)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if !backoff.Poll(2*time.Second, time.Millisecond, 20*time.Millisecond, func() bool { return procstate.Dying(id) }) {
		t.Skipf("sleep pid %d, stopped with SIGTERM pending: procstate.Dying says not dying (no pending-signal sight here)", id.PID)
	}
	return cmd, id
}

// A process being killed but not gone by the survivor grace is waited
// for (a loaded machine's slow exit), and is no survivor once gone.
func TestAwaitKilledWaitsForTheDying(t *testing.T) {
	if proc.Portable() {
		t.Skip("portable mode: pending signals cannot be seen")
	}
	cmd, id := stoppedWithTermPending(t)
	const hold = 700 * time.Millisecond
	time.AfterFunc(hold, func() { cmd.Process.Signal(syscall.SIGCONT) })
	start := time.Now()
	live := awaitKilled(dyingGrace, func() []proc.Identity {
		if id.Alive() {
			return []proc.Identity{id}
		}
		return nil
	})
	if took := time.Since(start); len(live) != 0 || took < hold {
		t.Errorf("awaitKilled on pid %d, dying for %v: got %v after %v, want none after at least %v", id.PID, hold, live, took, hold)
	}
}

// A process alive and not being killed ends the wait at once: it is a
// survivor, and so is any dying one beside it.
func TestAwaitKilledStopsAtTheLiving(t *testing.T) {
	if proc.Portable() {
		t.Skip("portable mode: pending signals cannot be seen")
	}
	_, dying := stoppedWithTermPending(t)
	//execcheck:ignore a sleep killed and waited for by the cleanup
	cmd := exec.Command("/bin/sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start /bin/sleep: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	living, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	live := awaitKilled(dyingGrace, func() []proc.Identity { return []proc.Identity{dying, living} })
	if took := time.Since(start); len(live) != 2 || took > dyingGrace/2 {
		t.Errorf("awaitKilled with pid %d alive and not being killed: got %v after %v, want both at once", living.PID, live, took)
	}
}
