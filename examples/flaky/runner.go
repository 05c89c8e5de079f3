// Package flaky is a runner with a start-up race, for the flake-hunting
// demo: its tree-wide kill is armed only after some start-up bookkeeping,
// and a cancel that comes before kills the direct child alone. On an idle
// machine the bookkeeping is done long before any cancel, and its tests are
// green; under CPU load the same bookkeeping takes longer in wall time, the
// cancel wins, and the descendant keeps the pipe open.
package flaky

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"sync/atomic"
	"time"
)

// Bookkeeping is the processor time the start-up bookkeeping costs.
const Bookkeeping = 20 * time.Millisecond

// Run runs argv under ctx. Its bug: the process-group kill is armed only
// once the bookkeeping is done.
func Run(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	ownGroup(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	//execcheck:ignore the flake-hunting demo's bug: the group kill is armed late, on purpose
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var armed atomic.Bool
	go func() {
		spend(Bookkeeping)
		armed.Store(true)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if armed.Load() {
			killGroup(cmd)
		} else {
			cmd.Process.Kill() // the bug: the descendant survives
		}
		<-done
		return ctx.Err()
	}
}

// spend burns d of this thread's processor time: the same work whatever
// the machine's load, and so longer in wall time under load.
func spend(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadTime()
	for threadTime()-start < d {
	}
}
