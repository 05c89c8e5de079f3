package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/exectest/exectest"
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
	msg := fmt.Sprintf("bwrap: got %v, want a working bubblewrap (apt-get install bubblewrap)", err)
	strict, serr := strictOn()
	switch {
	case serr != nil:
		t.Fatalf("%s\n(failing instead of skipping: %v)", msg, serr)
	case strict:
		t.Fatalf("%s\n(failing instead of skipping: %s is on)", msg, strictEnv)
	}
	t.Skipf("%s\n(set %s=1 to make this a failure)", msg, strictEnv)
}

// strictEnv is exectest's own switch for CI: on, a test fails where it
// would skip for want of something the machine could have installed.
const strictEnv = "EXECTEST_STRICT"

// strictOn reads strictEnv as exectest does: unset or empty is off, any
// other value what strconv.ParseBool accepts. A typo must not pass for
// off, or CI would skip unseen what it set the switch to catch.
func strictOn() (bool, error) {
	v := os.Getenv(strictEnv)
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: got %q, want what strconv.ParseBool accepts (1 or true: on; 0 or false: off) or unset (off)", strictEnv, v)
	}
	return on, nil
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
	// A folder that does not exist: nothing is on PATH. (Not t.TempDir,
	// whose removal fails under Wine 8, where this test runs too.)
	t.Setenv("PATH", filepath.Join(os.TempDir(), "exectest-no-such-folder"))
	if _, err := Run(context.Background(), SharedPID, []string{"/bin/true"}); !errors.Is(err, ErrNoBwrap) {
		t.Errorf("Run without bwrap on PATH: got %v, want ErrNoBwrap", err)
	}
}
