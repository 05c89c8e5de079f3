package backoff

import (
	"runtime"
	"syscall"
	"time"
)

// pause sleeps for d. Below a millisecond it sleeps in nanosleep(2), on
// the calling thread: the runtime's timers wake a sleeping goroutine no
// sooner than a millisecond on Linux (the network poller waits in whole
// milliseconds), so a 20 µs time.Sleep lasts 1 ms or more, and the first
// looks of a backoff, meant to come within microseconds, would each cost
// as long as the event they wait for. The thread is blocked for at most
// that millisecond.
//
// It yields first: the runtime hands the processor of a thread in a
// system call to another thread only when its monitor notices, some tens
// of microseconds to milliseconds later, and a goroutine that the caller
// made runnable waits on that processor until then. A loop of short
// pauses (the wait for the descendant's exec) kept the check's own
// goroutine from running for its whole length.
func pause(d time.Duration) {
	if d >= time.Millisecond {
		time.Sleep(d)
		return
	}
	runtime.Gosched()
	ts := syscall.NsecToTimespec(int64(d))
	// A signal (the runtime's preemption, SIGURG) ends it early: sleep
	// what is left.
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}
