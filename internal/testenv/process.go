package testenv

import (
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// AwaitDead reports whether id is dead (a zombie counts) within d: the
// kernel tears a killed process down a moment after the signal.
func AwaitDead(id proc.Identity, d time.Duration) bool {
	return backoff.Poll(d, time.Millisecond, 20*time.Millisecond, func() bool { return !id.Alive() })
}
