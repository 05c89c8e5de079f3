package quickstart_test

import (
	"context"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/examples/quickstart"
)

// The hermetic fixture re-executes this test binary, which VerifyTestMain
// dispatches; it also fails a passing run that leaves goroutines or
// processes behind.
func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

func TestRunStopsTheWholeTreeOnCancel(t *testing.T) {
	for name, opts := range map[string][]exectest.DescendantOption{
		"shell":    nil,
		"hermetic": {exectest.Hermetic()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := exectest.NewDescendant(t, opts...)
			exectest.AssertCancel(t, d, func(ctx context.Context) error {
				_, err := quickstart.Run(ctx, d.Argv())
				return err
			})
		})
	}
}
