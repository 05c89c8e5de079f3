//go:build netbsd || windows

package flaky

import "time"

// start is when the process began, for threadTime.
var start = time.Now()

// threadTime is wall time here: these systems give Go no per-thread
// processor clock, so the bookkeeping costs the same in wall time under
// load, and the demo's race shows less.
func threadTime() time.Duration { return time.Since(start) }
