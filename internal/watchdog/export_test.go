package watchdog

import "os"

// RoleFlag starts the arguments of a test binary started as the watchdog.
const RoleFlag = roleFlag

// RoleArg is the watchdog's argument for the test process owner.
var RoleArg = roleArg

// Die does to the watchdog what the test process's death does: it closes
// the pipe's write end, waits for the watchdog to exit, and forgets it,
// and the fixtures it knew, as a new test process would start afresh.
func Die() {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if guard.w == nil {
		return
	}
	guard.w.Close()
	guard.p.Wait()
	guard.w, guard.p, guard.starts, guard.fixtures = nil, nil, 0, nil
}

// Pipe is the test process's end of its watchdog's pipe, nil while none
// runs.
func Pipe() *os.File {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	return guard.w
}
