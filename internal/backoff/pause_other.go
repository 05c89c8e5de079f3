//go:build !unix

package backoff

import "time"

// pause sleeps for d.
func pause(d time.Duration) { time.Sleep(d) }
