package downstream

import (
	"context"
	"testing"

	"github.com/exectest/exectest"
)

func TestRunCancel(t *testing.T) {
	d := exectest.NewDescendant(t)
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		_, err := Run(ctx, d.Argv())
		return err
	})
}
