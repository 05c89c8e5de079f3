package flaky_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/examples/flaky"
)

func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

// DemoEnv turns the demo on. Off by default: the test is flaky on purpose.
const DemoEnv = "EXECTEST_FLAKE_DEMO"

// demoOn reads DemoEnv: unset or empty is off, any other value what
// strconv.ParseBool accepts. A typo fails rather than pass for off, which
// would skip the demo the user asked for.
func demoOn() (bool, error) {
	v := os.Getenv(DemoEnv)
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: got %q, want what strconv.ParseBool accepts (1 or true: on; 0 or false: off) or unset (off)", DemoEnv, v)
	}
	return on, nil
}

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
	if on, err := demoOn(); err != nil {
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

// fixedRun is flaky.Run with the fix line its failure prints applied:
// cancelpolicy.Run(ctx, cmd) in place of cmd.Start(), the kill and
// cmd.Wait(). The group is killed whenever the cancel comes, bookkeeping
// or not. (The line once advised a hand-written syscall.Kill of the group
// in a Cancel, which a command from exec.Command cannot take.)
func fixedRun(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cancelpolicy.Run(ctx, cmd)
}

// TestFixedCancelDuringStartup: the demo's cancels against the fixed
// runner. On by default: it passes, under load too.
func TestFixedCancelDuringStartup(t *testing.T) {
	for range 5 {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, func(ctx context.Context) error {
			return fixedRun(ctx, d.Argv())
		},
			exectest.CancelAfterRandom(flaky.Bookkeeping*3/2, flaky.Bookkeeping*5/2),
			exectest.Within(500*time.Millisecond))
	}
}
