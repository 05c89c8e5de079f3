package sandbox

import (
	"context"
	"errors"
	"os/exec"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/envswitch"
)

func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

// needBwrap skips where bubblewrap cannot run, saying why; CI sets
// EXECTEST_STRICT=1 and installs it, so there it fails instead.
func needBwrap(t *testing.T) {
	t.Helper()
	err := exec.Command("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "/bin/true").Run()
	if err == nil {
		return
	}
	envswitch.Unmet(t, "bwrap: got %v, want a working bubblewrap (apt-get install bubblewrap)", err)
}

func TestCancelStopsEverything(t *testing.T) {
	runners := []struct {
		name    string
		sandbox bool
		run     func(ctx context.Context, argv []string) ([]byte, error)
	}{
		{"direct", false, runDirect},
		{SharedPID.Name, true, func(ctx context.Context, argv []string) ([]byte, error) { return Run(ctx, SharedPID, argv) }},
		{PrivatePID.Name, true, func(ctx context.Context, argv []string) ([]byte, error) { return Run(ctx, PrivatePID, argv) }},
	}
	shapes := []struct {
		name string
		opts []exectest.DescendantOption
	}{
		{"shell", nil},
		{"hermetic", []exectest.DescendantOption{exectest.Hermetic()}},
	}
	for _, r := range runners {
		for _, s := range shapes {
			t.Run(r.name+"/"+s.name, func(t *testing.T) {
				t.Parallel()
				if r.sandbox {
					needBwrap(t)
				}
				d := exectest.NewDescendant(t, s.opts...)
				exectest.AssertCancel(t, d, func(ctx context.Context) error {
					_, err := r.run(ctx, d.Argv())
					return err
				})
			})
		}
	}
}

// A daemon that calls setsid escapes any process-group kill; only the
// private PID namespace, which dies with the runner, stops it.
func TestPrivatePIDStopsADaemon(t *testing.T) {
	t.Parallel()
	needBwrap(t)
	d := exectest.NewDescendant(t, exectest.Escaping())
	exectest.AssertCancel(t, d, func(ctx context.Context) error {
		_, err := Run(ctx, PrivatePID, d.Argv())
		return err
	})
}

func TestNoBwrap(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Run(context.Background(), SharedPID, []string{"/bin/true"}); !errors.Is(err, ErrNoBwrap) {
		t.Errorf("Run without bwrap on PATH: got %v, want ErrNoBwrap", err)
	}
}
