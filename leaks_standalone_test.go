//go:build unix

package exectest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
)

// These see the whole test process's descriptors: not parallel.

func TestGoroutineScope(t *testing.T) {
	release := make(chan struct{})
	leaky := exectest.NewGoroutineScope()
	leaky.Do(context.Background(), func(context.Context) {
		go func() { <-release }() // the helper that always leaks
	})
	err := leaky.Find()
	if err == nil || !strings.Contains(err.Error(), "got 1, want 0") || !strings.Contains(err.Error(), "TestGoroutineScope") {
		t.Errorf("Find with a leaked goroutine: got %v, want an error naming it", err)
	}
	close(release)
	if err := leaky.Find(); err != nil {
		t.Errorf("Find once the goroutine ended: got %v, want nil", err)
	}

	clean := exectest.NewGoroutineScope()
	clean.Do(context.Background(), func(ctx context.Context) {
		exec.CommandContext(ctx, "/bin/true").Run() // os/exec's goroutines end after Wait
	})
	if f := systemtest.RunFake(t, clean.VerifyNone); f.Failed() {
		t.Errorf("VerifyNone after a command that was waited for: got%s, want no error", f.Recorded())
	}
}

func TestDescriptorSnapshot(t *testing.T) {
	snap := exectest.SnapshotDescriptors()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	err = snap.Find()
	if err == nil || strings.Count(err.Error(), "\n\tfd ") != 2 || !strings.Contains(err.Error(), "pipe:[") ||
		!strings.Contains(err.Error(), "read end") || !strings.Contains(err.Error(), "write end") {
		t.Errorf("Find with an open pipe: got %v, want both ends named", err)
	}
	r.Close()
	w.Close()
	if f := systemtest.RunFake(t, snap.VerifyNone); f.Failed() {
		t.Errorf("VerifyNone once the pipe is closed: got%s, want no error", f.Recorded())
	}
}
