//go:build unix

package exectest_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
)

// ownGroupDefaultCancel puts the command in a group of its own but keeps
// the default Cancel, which kills the child alone.
func ownGroupDefaultCancel(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := command(ctx, argv)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		//execcheck:ignore a runner broken on purpose: the diagnosis tests need its failure
		return cmd.Run()
	}
}

// Every failure ends with the one change that fixes it, chosen from what
// the check saw. Before, no failure said what to change.
func TestFailuresSayWhatToChange(t *testing.T) {
	const (
		ownGroup  = "fix: start the command in a process group of its own and kill that group on cancel: cancelpolicy.Apply(cmd)"
		killGroup = "fix: kill the group on cancel, not only the child"
		contain   = "fix: a descendant left the command's process group"
		waitFirst = "fix: run returned while the command's tree still ran and killed it only later"
		early     = "fix: run returned before the cancel with the command still running"
		wait      = "fix: run gave up on the command without cmd.Wait"
	)
	cases := []struct {
		name   string
		escape bool
		run    runner
		want   string
	}{
		{"default cancel hangs", false, defaultCancel, ownGroup},
		{"kill only hangs", false, killOnly, ownGroup},
		{"wait delay only leaves the descendant", false, waitDelayOnly, ownGroup},
		{"file stdout leaves the descendant", false, fileStdout, ownGroup},
		{"own group, default cancel", false, ownGroupDefaultCancel, killGroup},
		{"escaped descendant against the group kill", true, fixed, contain},
		{"returns, kills later", false, lateKill(100 * time.Millisecond), waitFirst},
		{"abandoning wrapper", false, abandoning, wait},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := runFake(t, func(tb testing.TB) {
				var opts []exectest.DescendantOption
				if c.escape {
					opts = append(opts, exectest.Escaping())
				}
				d := exectest.NewDescendant(tb, opts...)
				exectest.AssertCancel(tb, d, c.run(d.Argv()))
			})
			f.wantVerdict(t, "fail", c.want)
		})
	}
	t.Run("returned before the cancel", func(t *testing.T) {
		t.Parallel()
		var cmdWait func() error
		f := runFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, func(ctx context.Context) error {
				cmd := command(context.Background(), d.Argv())
				cmdWait = cmd.Wait
				return cmd.Start()
			})
		})
		cmdWait()
		f.wantVerdict(t, "fail", early)
	})
}
