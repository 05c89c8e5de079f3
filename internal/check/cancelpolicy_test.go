//go:build unix

package check_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/examples/runners"
	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// policyRun runs the command through cancelpolicy.Run, which also watches
// the context after the direct child exited.
var policyRun = systemtest.Adapt(runners.PolicyRun)

// gracefulRun is policyRun with a SIGTERM first and a SIGKILL 5s later.
func gracefulRun(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		return cancelpolicy.Run(ctx, systemtest.Command(ctx, argv), cancelpolicy.Graceful(syscall.SIGTERM, 5*time.Second))
	}
}

// gracefulShortRun is policyRun with a SIGTERM first and a SIGKILL 200ms
// later: within the check's bound.
func gracefulShortRun(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		return cancelpolicy.Run(ctx, systemtest.Command(ctx, argv), cancelpolicy.Graceful(syscall.SIGTERM, 200*time.Millisecond))
	}
}

// containedRun is policyRun in a cgroup of the command's own.
func containedRun(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		return cancelpolicy.Run(ctx, systemtest.Command(ctx, argv), cancelpolicy.Contain())
	}
}

// The cancelpolicy package against the fixture: it stops the waiting
// shape, shell and hermetic, through each entry point, and like every
// group kill it misses a descendant that escaped into its own session.
func TestCancelPolicyVerdicts(t *testing.T) {
	for _, sh := range systemtest.Shapes {
		for _, c := range []struct {
			name    string
			run     systemtest.Runner
			opts    []exectest.DescendantOption
			verdict string
			want    []string
		}{
			{"apply", systemtest.Policy, nil, "pass", nil},
			{"run", policyRun, nil, "pass", nil},
			{"run graceful", gracefulRun, nil, "pass", nil},
			{"run, escaping", policyRun, []exectest.DescendantOption{exectest.Escaping()}, "fail", []string{"(descendant, escaped into its own session)", sh.SleepText, "cancelpolicy.Contain()"}},
			{"run contained", containedRun, nil, "pass", nil},
			{"run contained, escaping", containedRun, []exectest.DescendantOption{exectest.Escaping()}, "pass", nil},
		} {
			t.Run(sh.Name+"/"+c.name, func(t *testing.T) {
				if strings.HasPrefix(c.name, "run contained") && !testenv.CanContain(t) {
					return
				}
				t.Parallel()
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, append(c.opts, sh.Opts...)...)
					exectest.AssertCancel(tb, d, c.run(d.Argv()))
				})
				f.WantVerdict(t, c.verdict, c.want...)
			})
		}
	}
}

// Production code imports cancelpolicy: it must link nothing but the
// standard library and golang.org/x/sys, on every system it builds for.
func TestCancelPolicyDependencies(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		envswitch.Unmet(t, "no go command to list cancelpolicy's dependencies: %v", err)
	}
	for _, goos := range []string{"linux", "darwin", "freebsd", "windows"} {
		cmd := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/exectest/exectest/cancelpolicy")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps github.com/exectest/exectest/cancelpolicy: %v\n%s", goos, err, stderrOf(err))
		}
		var bad []string
		for _, pkg := range strings.Fields(string(out)) {
			if pkg != "github.com/exectest/exectest/cancelpolicy" && pkg != "golang.org/x/sys" && !strings.HasPrefix(pkg, "golang.org/x/sys/") {
				bad = append(bad, pkg)
			}
		}
		if len(bad) > 0 {
			t.Errorf("GOOS=%s: dependencies of cancelpolicy outside the standard library and golang.org/x/sys: got %d, want 0:\n  %s", goos, len(bad), strings.Join(bad, "\n  "))
		}
	}
}

func stderrOf(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(exit.Stderr)
	}
	return ""
}
