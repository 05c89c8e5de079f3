package backoff

import (
	"runtime"
	"testing"
	"time"
)

// A goroutine that the polling one made runnable runs at its first pause,
// not once the runtime notices that the poller's thread sleeps in a
// system call: on one processor, the poll sees it done at its second
// look, or its third when the scheduler, for fairness, takes the poller
// back from the global queue first. Without the yield it waited 8 to 184
// looks.
func TestPauseLetsAReadiedGoroutineRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for round := range 20 {
		start, done := make(chan struct{}), make(chan struct{})
		go func() {
			<-start
			close(done)
		}()
		runtime.Gosched() // it now waits on start
		close(start)      // runnable, on this processor
		looks := 0
		Poll(time.Second, time.Microsecond, 2*time.Microsecond, func() bool {
			looks++
			select {
			case <-done:
				return true
			default:
				return false
			}
		})
		if looks > 3 {
			t.Fatalf("round %d: looks until the readied goroutine ran: got %d, want 2, or 3 when the scheduler takes the poller from the global queue first (once in 61 schedules, for fairness)", round, looks)
		}
	}
}
