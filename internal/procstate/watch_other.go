//go:build !linux

package procstate

import "github.com/exectest/exectest/internal/proc"

// A Watch would hold a pidfd on one process: there is none off Linux.
type Watch struct{}

// Open fails: off Linux no descriptor pins a process to ask how it ended.
func Open(proc.Identity) (*Watch, error) { return nil, errNoWatch }

// Close does nothing.
func (w *Watch) Close() {}

// End never knows.
func (w *Watch) End() (End, bool) { return End{}, false }

// EndKnown is false: no kernel here tells how a reaped process ended.
var EndKnown = func() bool { return false }
