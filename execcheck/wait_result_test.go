package execcheck

import (
	"strings"
	"testing"
)

// TestWaitResultNoteOnce: one group kill that comes only on a result of
// Wait, reached by several paths (goa's terminate, called by Stop and
// StopAll), is one note, not one per path.
func TestWaitResultNoteOnce(t *testing.T) {
	e := effect{Group: true, Why: "syscall.Kill(-pid, sig) (in terminate)", OnResult: "<-proc.done had not fired"}
	p := &props{Kills: []effect{e, e, e}}
	got := waitResultNote(p, "a cancel kills only the direct child")
	if n := strings.Count(got, "the group kill by hand"); n != 1 {
		t.Errorf("waitResultNote: got %d notes in %q, want 1", n, got)
	}
}
