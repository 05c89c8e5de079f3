package cancelpolicy_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run takes a command from exec.Command or exec.CommandContext, as its
// documentation says, and a done context stops the whole tree: Run's own,
// or the command's while its direct child runs.
func TestRunTakesEitherCommand(t *testing.T) {
	cases := []struct {
		name string
		// build makes the command from the sh -c command line; ctx is
		// Run's, other a context that the case may cancel instead.
		build func(ctx, other context.Context, argv []string) *exec.Cmd
		// stop cancels other instead of Run's ctx.
		stopOther bool
	}{
		{"exec.Command", func(_, _ context.Context, argv []string) *exec.Cmd { return exec.Command(argv[0], argv[1:]...) }, false},
		{"exec.CommandContext, the same context", func(ctx, _ context.Context, argv []string) *exec.Cmd {
			return exec.CommandContext(ctx, argv[0], argv[1:]...)
		}, false},
		{"exec.CommandContext, a context never done", func(_, other context.Context, argv []string) *exec.Cmd {
			return exec.CommandContext(other, argv[0], argv[1:]...)
		}, false},
		{"exec.CommandContext, its context done first", func(_, other context.Context, argv []string) *exec.Cmd {
			return exec.CommandContext(other, argv[0], argv[1:]...)
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			other, cancelOther := context.WithCancel(context.Background())
			defer cancelOther()
			sh, pidFile := shell(context.Background(), t, waiting)
			cmd := c.build(ctx, other, sh.Args)
			cmd.Stdout, cmd.Stderr = sh.Stdout, sh.Stderr
			waited := make(chan error, 1)
			go func() { waited <- cancelpolicy.Run(ctx, cmd, cancelpolicy.WaitDelay(waitDelay)) }()
			d := awaitDescendant(t, pidFile)
			stop := cancel
			if c.stopOther {
				stop = cancelOther
			}
			stopAndCheck(t, c.name, stop, func() error { return <-waited }, d, 0)
		})
	}
}
