package check

import (
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// A test's fixtures not released yet, and the one cleanup that releases
// them when the test ends. A cleanup registered per fixture would stay in
// the test's list until the test ends, and testing keeps each with its
// caller's stack (about 400 bytes): a test that runs a thousand checks
// in a loop would hold a thousand of them, although each check released
// its fixture as it ended. So a test registers one, with its first
// fixture, and a check's release takes its fixture out of the test's
// list: after the last check the list is as empty as after the first.
//
// The fixtures never checked are released at the end of the test, last
// made first, where the test's first fixture put the cleanup among the
// test's own (testing runs them last registered first).
var pending struct {
	mu     sync.Mutex
	byTest map[testing.TB]*testFixtures
}

// testFixtures are one test's fixtures not released yet, oldest first.
type testFixtures struct{ live []*Fixture }

// track has d released when its test ends, if its check has not released
// it by then.
func (d *Fixture) track() {
	tb := d.tb
	if !reflect.ValueOf(tb).Comparable() {
		// A testing.TB that cannot be a map key (a struct holding a slice,
		// say): a cleanup of the fixture's own, which holds only a pointer
		// that release clears, so that a released fixture is garbage as soon
		// as the test drops it.
		p := new(atomic.Pointer[Fixture])
		p.Store(d)
		d.untrack = func() { p.Store(nil) }
		tb.Cleanup(func() {
			if d := p.Load(); d != nil {
				d.release()
			}
		})
		return
	}
	pending.mu.Lock()
	f := pending.byTest[tb]
	first := f == nil
	if first {
		if pending.byTest == nil {
			pending.byTest = map[testing.TB]*testFixtures{}
		}
		f = &testFixtures{}
		pending.byTest[tb] = f
	}
	f.live = append(f.live, d)
	pending.mu.Unlock()
	d.untrack = func() {
		pending.mu.Lock()
		defer pending.mu.Unlock()
		if i := slices.Index(f.live, d); i >= 0 {
			f.live = slices.Delete(f.live, i, i+1)
		}
	}
	if first {
		tb.Cleanup(func() { releaseTest(tb) })
	}
}

// releaseTest releases the fixtures of tb that no check released, last
// made first, and forgets tb: a fixture made after this (by a cleanup
// that runs later) registers a cleanup again.
func releaseTest(tb testing.TB) {
	pending.mu.Lock()
	f := pending.byTest[tb]
	delete(pending.byTest, tb)
	var live []*Fixture
	if f != nil {
		live = slices.Clone(f.live)
	}
	pending.mu.Unlock()
	for _, d := range slices.Backward(live) {
		d.release()
	}
}
