package proc_test

import (
	"os/exec"
	"testing"
)

// leak starts a process that nobody stops but the test's cleanup.
func leak(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("/bin/sleep", args...)
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sleep: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}
