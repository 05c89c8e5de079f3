//go:build unix

package cancelpolicy_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run and Wait return the command's own error as cmd.Wait does, not one
// that wraps it: code that compares it with == or asserts its type (as
// much code written against cmd.Run does) keeps working once the fix is
// applied. Before, every error came back inside errors.Join.
func TestRunReturnsTheCommandsOwnError(t *testing.T) {
	err := cancelpolicy.Run(context.Background(), exec.Command("/bin/sh", "-c", "exit 3"))
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("Run of a command that exits 3: got %#v, want an *exec.ExitError itself, status 3", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := cancelpolicy.Run(ctx, exec.Command("/bin/sleep", "20")); err != context.DeadlineExceeded {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Errorf("Run cancelled: got %#v, want context.DeadlineExceeded or the *exec.ExitError itself", err)
		}
	}
	if err := cancelpolicy.Run(context.Background(), exec.Command("/bin/true")); err != nil {
		t.Errorf("Run of /bin/true: got %v, want nil", err)
	}
}
