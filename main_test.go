package exectest_test

import (
	"os"
	"testing"

	"github.com/exectest/exectest/fixtures"
	"github.com/exectest/exectest/proctest"
)

func TestMain(m *testing.M) {
	// Panic on any Cmd that is started and never waited for.
	os.Setenv("GODEBUG", "execwait=2")
	fixtures.Dispatch()
	// And fail the run if any test leaves a process behind.
	proctest.VerifyTestMain(m)
}
