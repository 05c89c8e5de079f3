//go:build !netbsd && !windows

package flaky

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadTime is this thread's processor time.
func threadTime() time.Duration {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}
