package runner_test

import (
	"context"
	"testing"

	"example.com/downstream/runner"
	"github.com/exectest/exectest"
)

func TestRunStopsOnCancel(t *testing.T) {
	for _, c := range []struct {
		name   string
		script bool // run d.Script() rather than d.Argv()
	}{
		{"argv", false},
		{"script", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d := exectest.NewDescendant(t)
			argv := d.Argv()
			if c.script {
				argv = []string{d.Script()}
			}
			exectest.AssertCancel(t, d, func(ctx context.Context) error {
				_, err := runner.Run(ctx, argv)
				return err
			})
		})
	}
}
