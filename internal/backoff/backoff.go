// Package backoff looks again, with a short capped backoff, at something
// the kernel or the runtime settles asynchronously: a killed process torn
// down, an exec finished, a goroutine ended, a cgroup emptied. Most settle
// within a millisecond, a few take much longer: the first looks come soon,
// the later ones less and less often.
package backoff

import "time"

// A Schedule says how long to sleep between two looks: First, then twice
// as long each time, up to Max. From Slow after the first look on, the cap
// is SlowMax instead (with Slow 0, Max holds throughout): for a wait whose
// first looks must be frequent and whose late ones must not cost much.
type Schedule struct {
	First, Max    time.Duration
	Slow, SlowMax time.Duration
}

// Poll calls done until it returns true or limit has passed, and reports
// whether it did. done is always called at least once, and once more
// after limit has passed if the last sleep took it there.
func (s Schedule) Poll(limit time.Duration, done func() bool) bool {
	began := now()
	end := began.Add(limit)
	for wait := s.First; ; wait = min(2*wait, s.cap(now().Sub(began))) {
		if done() {
			return true
		}
		if now().After(end) {
			return false
		}
		sleep(wait)
	}
}

func (s Schedule) cap(waited time.Duration) time.Duration {
	if s.Slow > 0 && waited >= s.Slow {
		return s.SlowMax
	}
	return s.Max
}

// Poll is Schedule{First: first, Max: max}.Poll(limit, done).
func Poll(limit, first, max time.Duration, done func() bool) bool {
	return Schedule{First: first, Max: max}.Poll(limit, done)
}

// now and sleep are variables so that a test can run a schedule on a
// clock of its own.
var (
	now   = time.Now
	sleep = pause
)
