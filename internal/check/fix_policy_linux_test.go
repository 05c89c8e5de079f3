package check_test

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
)

// policyCall runs a command with cancelpolicy, with opts: as run calls it.
type policyCall struct {
	name string // as a fix line names it
	run  func(ctx context.Context, b build, argv []string, opts ...cancelpolicy.Option) error
}

var policyCalls = []policyCall{
	{"cancelpolicy.Run", func(ctx context.Context, b build, argv []string, opts ...cancelpolicy.Option) error {
		return cancelpolicy.Run(ctx, b.command(ctx, argv), opts...)
	}},
	{"cancelpolicy.Start", func(ctx context.Context, b build, argv []string, opts ...cancelpolicy.Option) error {
		s, err := cancelpolicy.Start(ctx, b.command(ctx, argv), opts...)
		if err != nil {
			return err
		}
		return s.Wait()
	}},
}

// A runner that already stops its command with cancelpolicy gets a fix
// line that says to add the option to that call: it said
// "cancelpolicy.Run(ctx, cmd, cancelpolicy.Contain()) in place of
// cmd.Run(), ..." to a runner with no cmd.Run() to replace. Applied as
// the line says (the option added, in place of one of its kind), to the
// runner built either way, the check passes: Contain for a descendant
// that leaves the group (job control), Graceful with a grace within the
// bound for a descendant that ignores the cancel's signal.
func TestFixLinesForARunnerOnCancelpolicy(t *testing.T) {
	for _, c := range []struct {
		name   string
		need   func(*testing.T)
		opts   []exectest.DescendantOption
		broken []cancelpolicy.Option
		line   string
		add    string // the option the line must add
		fixed  []cancelpolicy.Option
	}{
		{"job control: Contain", needContain, []exectest.DescendantOption{exectest.JobControl()},
			nil, check.FixLines["contain"], "cancelpolicy.Contain()", []cancelpolicy.Option{cancelpolicy.Contain()}},
		{"background job, SIGINT: Graceful", needSigIgn, nil,
			[]cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGINT, 5*time.Second)}, check.FixIgnored(syscall.SIGINT, 500*time.Millisecond),
			"cancelpolicy.Graceful(syscall.SIGINT, 500*time.Millisecond)", []cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGINT, 500*time.Millisecond)}},
	} {
		for _, call := range policyCalls {
			for _, b := range builds {
				t.Run(c.name+"/"+call.name+"/"+b.name, func(t *testing.T) {
					c.need(t)
					t.Parallel()
					f := systemtest.RunFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb, c.opts...)
						exectest.AssertCancel(tb, d, func(ctx context.Context) error { return call.run(ctx, b, d.Argv(), c.broken...) })
					})
					f.WantVerdict(t, "fail")
					want := check.ForRunCall(c.line, call.name)
					add := "add " + c.add + " to the options of the " + call.name + " call that run makes"
					if got := fixLines(f.Recorded()); !slices.Equal(got, []string{want}) || !strings.Contains(want, add) || strings.Contains(want, "in place of cmd.") {
						t.Fatalf("fix lines for a runner on %s: got\n\t%s\nwant\n\t%s\n(saying %q, and no \"in place of cmd.\")\nrecorded:%s", call.name, strings.Join(got, "\n\t"), want, add, f.Recorded())
					}
					f = systemtest.RunFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb, c.opts...)
						exectest.AssertCancel(tb, d, func(ctx context.Context) error { return call.run(ctx, b, d.Argv(), c.fixed...) })
					})
					f.WantVerdict(t, "pass")
				})
			}
		}
	}
}
