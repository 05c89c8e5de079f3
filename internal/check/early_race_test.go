//go:build unix

package check_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
)

// A run that returned before the cancel was not cancelled, even where the
// check heard of its return only after the proof of life: on a loaded
// machine both can be ready when the check wakes, and the check looked at
// the proof first, cancelled, and reported "run returned 4µs after
// cancel" with the fix line of an abandoned tree (seen in CI, portable
// mode, as nobody). The phase hook holds run's return back to make each
// order certain.
func TestEarlyReturnHeardLateIsEarly(t *testing.T) {
	for _, c := range []struct {
		name string
		// hold is the check's phase that lets run's return be sent.
		hold string
		// waitSent makes the check wait at hold until it is sent.
		waitSent bool
	}{
		{name: "sent before the cancel, heard after the proof", hold: "waited", waitSent: true},
		{name: "sent after the cancel", hold: "cancel"},
	} {
		t.Run(c.name, func(t *testing.T) {
			release, sent := make(chan struct{}), make(chan struct{})
			// The run goroutine that ends first after this check's run
			// returned is its own: another test's run, given up on and
			// killed, may end at any time and is let through.
			var returned, ending, claimed atomic.Bool
			restore := check.SetPhaseHook(func(phase string) {
				switch phase {
				case "run ends":
					if !returned.Load() || !claimed.CompareAndSwap(false, true) {
						return
					}
					ending.Store(true)
					select {
					case <-release:
					case <-time.After(time.Minute): // a check that never gets there
					}
				case "run end sent":
					if ending.CompareAndSwap(true, false) {
						close(sent)
					}
				case c.hold:
					close(release)
					if c.waitSent {
						<-sent
					}
				}
			})
			defer restore()
			var rp reaper
			defer rp.reap()
			b := builds[0]
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				run := startsOnly(b, d, &rp)
				exectest.AssertCancel(tb, d, func(ctx context.Context) error {
					defer returned.Store(true)
					return run(ctx)
				})
			})
			f.WantVerdict(t, "fail")
			rec := f.Recorded()
			if got := fixLines(rec); len(got) != 1 || got[0] != check.FixLines["early"] {
				t.Errorf("fix lines: got %q, want only %q\nrecorded:%s", got, check.FixLines["early"], rec)
			}
			if !strings.Contains(rec, "run returned before the cancel") || strings.Contains(rec, "after cancel") {
				t.Errorf("recorded: got %s\nwant %q and never %q", rec, "run returned before the cancel", "after cancel")
			}
		})
	}
}
