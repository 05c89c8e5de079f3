package quickstart_test

import (
	"context"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/examples/quickstart"
	"github.com/exectest/exectest/fixtures"
)

// The hermetic fixture re-executes this test binary; it needs the hook.
func TestMain(m *testing.M) { fixtures.Main(m) }

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
