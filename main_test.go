package exectest_test

import (
	"os"
	"testing"

	"github.com/exectest/exectest/fixtures"
)

func TestMain(m *testing.M) {
	// Panic on any Cmd that is started and never waited for.
	os.Setenv("GODEBUG", "execwait=2")
	fixtures.Main(m)
}
