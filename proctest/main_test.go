package proctest_test

import (
	"testing"

	"github.com/exectest/exectest"
)

// The package's own tests leave nothing running: checked as users would.
func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }
