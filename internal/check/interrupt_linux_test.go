package check_test

import (
	"strings"
	"syscall"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
)

// A signal.Notify of the test binary's own for the signal gets it twice:
// the original, and the one raised again after the cleanup, which the
// handler then takes instead of the default action: the process lives on,
// as it would have without exectest, its fixture gone.
func TestInterruptWithOwnHandler(t *testing.T) {
	v := startVictim(t, t.TempDir(), victimSpec{shape: "shell", handler: "own"})
	if err := v.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := v.wait(); err != nil {
		t.Errorf("victim with a handler of its own: got %v, want it to live on and pass; stderr:\n%s", err, v.stderr.String())
	}
	want := "victim: own handler got 2; then the descendant alive false, the folder there false"
	if !strings.Contains(strings.Join(v.said, "\n"), want) {
		t.Errorf("victim with a handler of its own said:\n%s\nwant %q", strings.Join(v.said, "\n"), want)
	}
	if left := v.leftovers(); len(left) > 0 {
		t.Errorf("victim's fixture: got %d left, want 0:\n\t%s", len(left), strings.Join(left, "\n\t"))
	}
}

// A test binary that ignores SIGINT keeps ignoring it while a fixture is
// in use: exectest does not catch what the test binary ignores.
func TestInterruptIgnoredStaysIgnored(t *testing.T) {
	v := startVictim(t, t.TempDir(), victimSpec{shape: "shell", handler: "ignore"})
	if err := v.wait(); err != nil {
		t.Errorf("victim that ignores SIGINT: got %v, want it to live on and pass; stderr:\n%s", err, v.stderr.String())
	}
	want := "victim: with a fixture in use, SIGINT ignored true; after one, the descendant alive true"
	if !strings.Contains(strings.Join(v.said, "\n"), want) {
		t.Errorf("victim that ignores SIGINT said:\n%s\nwant %q", strings.Join(v.said, "\n"), want)
	}
}

// The signals are caught from the first fixture in use to the last one's
// cleanup, and not otherwise: a test binary without a fixture in use gets
// them as it would without exectest.
func TestInterruptCaughtOnlyWhileFixturesInUse(t *testing.T) {
	if check.CatchingInterrupts() {
		t.Fatalf("before any fixture: got the signals caught, want not")
	}
	t.Run("fixtures", func(t *testing.T) {
		exectest.NewDescendant(t)
		exectest.NewDescendant(t, exectest.Hermetic())
		if !check.CatchingInterrupts() {
			t.Errorf("with fixtures in use: got the signals not caught, want caught")
		}
	})
	if check.CatchingInterrupts() {
		t.Errorf("after the fixtures' cleanup: got the signals caught, want not")
	}
}
