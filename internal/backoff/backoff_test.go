package backoff

import (
	"slices"
	"testing"
	"time"
)

// fakeClock makes now and sleep a clock that only sleep advances, and
// records the sleeps.
func fakeClock(t *testing.T) *[]time.Duration {
	t.Helper()
	var (
		clock  time.Time
		sleeps []time.Duration
	)
	now = func() time.Time { return clock }
	sleep = func(d time.Duration) {
		sleeps = append(sleeps, d)
		clock = clock.Add(d)
	}
	t.Cleanup(func() { now, sleep = time.Now, pause })
	return &sleeps
}

func TestPollDoublesUpToMax(t *testing.T) {
	// 1+2+4+8 then 10 each: the sleep that ends at 105ms passes the limit.
	sleeps := fakeClock(t)
	calls := 0
	ok := Poll(100*time.Millisecond, time.Millisecond, 10*time.Millisecond, func() bool { calls++; return false })
	ms := time.Millisecond
	want := []time.Duration{ms, 2 * ms, 4 * ms, 8 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms}
	if ok || !slices.Equal(*sleeps, want) || calls != len(want)+1 {
		t.Errorf("Poll never done, 100ms from 1ms up to 10ms: got %v, sleeps %v, %d calls; want false, sleeps %v, %d calls (the last one past the limit)", ok, *sleeps, calls, want, len(want)+1)
	}
}

func TestPollStopsWhenDone(t *testing.T) {
	sleeps := fakeClock(t)
	calls := 0
	ok := Poll(time.Second, time.Millisecond, 50*time.Millisecond, func() bool { calls++; return calls == 3 })
	if !ok || calls != 3 || len(*sleeps) != 2 {
		t.Errorf("Poll done at the third call: got %v after %d calls and %d sleeps, want true after 3 calls and 2 sleeps", ok, calls, len(*sleeps))
	}
}

func TestPollDoneAtOnceNeverSleeps(t *testing.T) {
	sleeps := fakeClock(t)
	if ok := Poll(0, time.Millisecond, time.Millisecond, func() bool { return true }); !ok || len(*sleeps) != 0 {
		t.Errorf("Poll done at once: got %v with sleeps %v, want true without sleeping", ok, *sleeps)
	}
}

func TestScheduleSlowsDown(t *testing.T) {
	sleeps := fakeClock(t)
	us := time.Microsecond
	s := Schedule{First: 20 * us, Max: 200 * us, Slow: time.Millisecond, SlowMax: 5 * time.Millisecond}
	s.Poll(10*time.Millisecond, func() bool { return false })
	// 20+40+80+160+200+200+200+200 = 1100µs: past Slow, the cap is SlowMax.
	want := []time.Duration{20 * us, 40 * us, 80 * us, 160 * us, 200 * us, 200 * us, 200 * us, 200 * us, 400 * us, 800 * us, 1600 * us, 3200 * us, 5000 * us}
	if !slices.Equal(*sleeps, want) {
		t.Errorf("sleeps of a schedule that slows down after 1ms: got %v, want %v", *sleeps, want)
	}
}

// BenchmarkFirstLook shows what a backoff's first sleep of 20 µs costs,
// through pause and through time.Sleep, on this machine.
//
//	go test -run '^$' -bench FirstLook ./internal/backoff
func BenchmarkFirstLook(b *testing.B) {
	for _, c := range []struct {
		name  string
		sleep func(time.Duration)
	}{{"pause", pause}, {"time.Sleep", time.Sleep}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.sleep(20 * time.Microsecond)
			}
		})
	}
}
