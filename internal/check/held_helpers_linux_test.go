package check_test

import (
	"os"
	"runtime"

	"github.com/exectest/exectest/internal/proc"
)

// held is what the test process holds at one moment: the measure of what
// checks leave behind (see TestChecksInOneTestHoldNoMore and
// BenchmarkManyChecks).
type held struct {
	fds        int    // open descriptors
	zombies    int    // zombie children, not reaped yet
	goroutines int    // goroutines
	heap       uint64 // bytes of live heap, after a collection
}

// heldNow measures what the test process holds now.
func heldNow() held {
	var h held
	if entries, err := os.ReadDir("/proc/self/fd"); err == nil {
		h.fds = len(entries) - 1 // less ReadDir's own
	}
	for _, pid := range proc.Children(os.Getpid()) {
		if id, err := proc.Identify(pid); err == nil {
			if s, err := id.Stat(); err == nil && s.Zombie() {
				h.zombies++
			}
		}
	}
	h.goroutines = runtime.NumGoroutine()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.heap = ms.HeapAlloc
	return h
}
