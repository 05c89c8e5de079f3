package flaky_test

import (
	"context"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/examples/flaky"
	"github.com/exectest/exectest/internal/envswitch"
)

func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

// DemoEnv turns the demo on. Off by default: the test is flaky on purpose.
const DemoEnv = "EXECTEST_FLAKE_DEMO"

// TestCancelDuringStartup cancels at a random moment after the command
// starts, later than the runner's bookkeeping takes on an idle machine.
// Green in isolation:
//
//	EXECTEST_FLAKE_DEMO=1 go test -count=50 ./examples/flaky
//
// and caught under load:
//
//	EXECTEST_FLAKE_DEMO=1 go run ./cmd/flakehunt -count 50 -load 4 ./examples/flaky
func TestCancelDuringStartup(t *testing.T) {
	if on, err := envswitch.Bool(DemoEnv); err != nil {
		t.Fatal(err)
	} else if !on {
		t.Skipf("flake-hunting demo, flaky on purpose: set %s=1 to run it", DemoEnv)
	}
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		return flaky.Run(ctx, d.Argv())
	},
		exectest.CancelAfterRandom(flaky.Bookkeeping*3/2, flaky.Bookkeeping*5/2),
		exectest.Within(500*time.Millisecond))
}
