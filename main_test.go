package exectest_test

import (
	"os"
	"testing"

	"github.com/exectest/exectest"
)

func TestMain(m *testing.M) {
	// Panic on any Cmd that is started and never waited for.
	os.Setenv("GODEBUG", "execwait=2")
	// Serve as the hermetic fixture, and fail the run if any test leaves
	// a goroutine or a process behind.
	exectest.VerifyTestMain(m)
}
