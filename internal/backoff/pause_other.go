//go:build !linux

package backoff

import "time"

// pause sleeps for d. Only Linux's short sleeps were measured to last
// far longer than asked (see pause_linux.go).
func pause(d time.Duration) { time.Sleep(d) }
