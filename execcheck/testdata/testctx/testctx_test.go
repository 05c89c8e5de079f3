//go:build unix

package testctx

import (
	"bytes"
	"os/exec"
	"testing"
)

// A Run in the test function ends before t.Context() can be done: no
// cancel comes while it runs.
func TestInline(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), "sh", "-c", "make all").CombinedOutput()
	if err != nil {
		t.Fatal(err, string(out))
	}
}

// The same in a table's subtests: each subtest's body takes its own
// context and waits for its run.
func TestTable(t *testing.T) {
	for _, script := range []string{"make a", "make b"} {
		t.Run(script, func(t *testing.T) {
			if err := exec.CommandContext(t.Context(), "sh", "-c", script).Run(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Started and waited for in a Cleanup: the context is done before the
// cleanup's Wait, while the command may run.
func TestStarted(t *testing.T) {
	var out bytes.Buffer
	cmd := exec.CommandContext(t.Context(), "sh", "-c", "make serve")
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel`
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Wait() })
}

// In a goroutine the test function does not wait for: the cancel
// comes while it runs.
func TestGoroutine(t *testing.T) {
	ctx := t.Context()
	go func() {
		exec.CommandContext(ctx, "sh", "-c", "make watch").Run() // want `^orphan: a cancel kills only the direct child`
	}()
}
