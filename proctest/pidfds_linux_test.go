package proctest_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/proctest"
)

// A pidfd the toolkit holds on an orphan the test process adopted (the
// watch on a fixture's descendant) says nothing of who started it: the
// orphan is still adopted, in a report too, and its zombie is still reaped
// by a check, which os/exec's pidfds would forbid.
func TestToolkitPidfdsLeaveAdoptedAlone(t *testing.T) {
	needSubreaper(t)
	adopted := orphan(t, "0.2")
	w, err := procstate.Open(adopted)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !proc.Adopted(adopted, os.Getpid()) {
		t.Errorf("Adopted of %v, watched by the toolkit: got false, want true", adopted)
	}
	if d, ok := proc.Describe(adopted, ""); !ok || !d.Adopted {
		t.Errorf("Describe of %v, watched by the toolkit: got Adopted %v (found %v), want true", adopted, d.Adopted, ok)
	}
	awaitZombie(t, adopted)
	proctest.Find(proctest.MaxWait(time.Millisecond))
	if _, err := adopted.Stat(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the adopted orphan's zombie %v, watched by the toolkit, after a check: got %v, want it reaped", adopted, err)
	}
}
