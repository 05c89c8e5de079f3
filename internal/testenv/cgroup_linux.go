package testenv

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// RemoveCgroup removes the cgroup at dir, waiting up to grace, with a
// capped backoff, for its members to leave; one already gone is no
// error. The error names the members left.
func RemoveCgroup(dir string, grace time.Duration) error {
	var err error
	backoff.Poll(grace, time.Millisecond, 50*time.Millisecond, func() bool {
		if err = unix.Rmdir(dir); errors.Is(err, unix.ENOENT) {
			err = nil
		}
		return !errors.Is(err, unix.EBUSY)
	})
	if err != nil {
		members, _ := (&proc.Cgroup{Path: dir}).PIDs()
		return fmt.Errorf("rmdir %s: %w (members: %v)", dir, err, members)
	}
	return nil
}
