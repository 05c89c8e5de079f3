package watchdog_test

import (
	"testing"

	"github.com/exectest/exectest/internal/watchdog"
)

// The watchdog knows a fixture from Watch to End, and only then: a fixture
// its check released is not cleaned up again, nor counted by an interrupt.
func TestKnowsFromWatchToEnd(t *testing.T) {
	t.Cleanup(watchdog.Die) // the watchdog Watch may start
	const token = "tok-knows"
	if watchdog.Knows(token) {
		t.Fatalf("Knows(%q) before Watch: got true, want false", token)
	}
	f := watchdog.Watch(token)
	if !watchdog.Knows(token) {
		t.Errorf("Knows(%q) after Watch: got false, want true", token)
	}
	f.End()
	if watchdog.Knows(token) {
		t.Errorf("Knows(%q) after End: got true, want false", token)
	}
	f.End() // a second End does nothing
}
