package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// burners are re-executions of this binary rather than goroutines: a
// goroutine would compete with flakehunt's own work and leave the test
// binaries' scheduling alone, while processes load the machine like the
// neighbours on a CI runner do.
type burners struct {
	pgid    int
	cmds    []*exec.Cmd
	stopped bool
}

// startBurners starts k burners in one process group of their own, so that
// one kill reaches them all and a terminal's ^C (sent to flakehunt's
// group) does not. Pdeathsig covers the case where flakehunt is killed
// before it can clean up.
func startBurners(k int) (*burners, error) {
	b := &burners{}
	if k == 0 {
		return b, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	for i := range k {
		cmd := exec.Command(exe, burnArg)
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Setpgid:   true,
			Pgid:      b.pgid, // 0 for the first: a group of its own
			Pdeathsig: syscall.SIGKILL,
		}
		if err := cmd.Start(); err != nil {
			err = fmt.Errorf("burner %d of %d: %w", i+1, k, err)
			return nil, errors.Join(err, b.stop())
		}
		if i == 0 {
			b.pgid = cmd.Process.Pid
		}
		b.cmds = append(b.cmds, cmd)
	}
	return b, nil
}

// stop kills and reaps every burner; it may be called more than once.
func (b *burners) stop() error {
	if b == nil || b.stopped {
		return nil
	}
	b.stopped = true
	var errs []error
	// The first burner is not reaped yet, so its pid, the group's id,
	// cannot have been reused. A pgid of 0 or 1, or our own, would kill far
	// more than burners.
	if b.pgid > 1 && b.pgid != syscall.Getpgrp() {
		if err := syscall.Kill(-b.pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("kill group %d: %w", b.pgid, err))
		}
	}
	for _, cmd := range b.cmds {
		// Also one by one: Wait below would block forever on a burner the
		// group kill missed.
		_ = cmd.Process.Kill()
		err := cmd.Wait()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			errs = append(errs, fmt.Errorf("wait burner %d: %w", cmd.Process.Pid, err))
		}
	}
	return errors.Join(errs...)
}

// pids lists the burners' process ids, for tests and messages.
func (b *burners) pids() []int {
	var pids []int
	for _, cmd := range b.cmds {
		pids = append(pids, cmd.Process.Pid)
	}
	return pids
}
