package testenv

import (
	"os/exec"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/proc"
)

// Start starts cmd, kills and reaps it when the test ends, and returns its
// identity. A command that cannot start skips the test, saying why, or
// fails it under EXECTEST_STRICT=1.
func Start(t testing.TB, cmd *exec.Cmd) proc.Identity {
	t.Helper()
	startReaped(t, cmd)
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// StartSleep starts /bin/sleep seconds as [Start] does, without reading
// its identity, and returns its command.
func StartSleep(t testing.TB, seconds string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("/bin/sleep", seconds)
	//execcheck:ignore /bin/sleep starts nothing; the cleanup kills and reaps it
	startReaped(t, cmd)
	return cmd
}

// startReaped starts cmd and kills and reaps it when the test ends.
func startReaped(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		envswitch.Unmet(t, "start %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
}

// AwaitDead reports whether id is dead (a zombie counts) within d: the
// kernel tears a killed process down a moment after the signal.
func AwaitDead(id proc.Identity, d time.Duration) bool {
	return backoff.Poll(d, time.Millisecond, 20*time.Millisecond, func() bool { return !id.Alive() })
}
