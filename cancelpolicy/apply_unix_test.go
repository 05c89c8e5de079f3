//go:build unix

package cancelpolicy_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// A cancel stops the whole tree: the sleep that holds the output pipe
// too, so Run returns at once rather than in 20 s.
func ExampleApply() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "/bin/sleep 20 & wait")
	cmd.Stdout = new(strings.Builder) // a pipe, which the sleep holds
	if err := cancelpolicy.Apply(cmd); err != nil {
		fmt.Println(err)
		return
	}
	start := time.Now()
	err := cmd.Run()
	fmt.Println(err, time.Since(start) < 5*time.Second)
	// Output:
	// signal: killed true
}

// A Cancel once the group is gone has nothing to do: os.ErrProcessDone,
// as os/exec's own Cancel gives for a process that exited.
func TestApplyCancelAfterTheGroupIsGone(t *testing.T) {
	t.Parallel()
	cmd := exec.CommandContext(context.Background(), "/bin/true")
	if err := cancelpolicy.Apply(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Cancel(); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Cancel after the group is gone: got %v, want os.ErrProcessDone", err)
	}
}

// Apply sets a Cancel, which os/exec refuses on a command without a
// context: Start or Run take exec.Command as well.
func TestApplyNeedsContext(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("/bin/true")
	if err := cancelpolicy.Apply(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err == nil {
		cmd.Wait()
		t.Errorf("Start of a Cmd without context under Apply: got nil, want os/exec's error about Cancel")
	}
	if err := cancelpolicy.Run(context.Background(), exec.Command("/bin/true")); err != nil {
		t.Errorf("Run of a Cmd without context: got %v, want nil", err)
	}
}
