package watchdog_test

import (
	"testing"

	"github.com/exectest/exectest"
)

// The package's own tests leave nothing running, the watchdogs they start
// aside (proctest leaves them out, as it must). The test binary is also
// the watchdog these tests start, by this package's init.
func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
