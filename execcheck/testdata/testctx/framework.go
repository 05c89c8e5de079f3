//go:build unix

package testctx

import (
	"context"
	"os/exec"
	"testing"
)

// Kubectl is kcp's e2e framework helper: its context's cancel runs only
// after the test, and the run ends inline before.
func Kubectl(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	out, err := exec.CommandContext(ctx, "kubectl", args...).CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// deferred: the cancel is deferred, so it runs after the run.
func deferred(script string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	return exec.CommandContext(ctx, "sh", "-c", script).Run()
}

// stopped: the cancel is also called by a watcher, while the run waits.
func stopped(script string, stop <-chan struct{}) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-stop
		cancel()
	}()
	return exec.CommandContext(ctx, "sh", "-c", script).Run() // want `^orphan: a cancel kills only the direct child`
}
