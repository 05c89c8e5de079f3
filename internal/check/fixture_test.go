//go:build unix

package check_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
)

func TestHermeticWithoutHook(t *testing.T) {
	restore := check.WithoutHermeticHook()
	defer restore()
	f := systemtest.RunFake(t, func(tb testing.TB) { exectest.NewDescendant(tb, exectest.Hermetic()) })
	f.WantVerdict(t, "fail", "fixture hook: got none, want exectest.VerifyTestMain(m) as TestMain", "func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }")
}

// Where the test binary is the only fixture (Windows), a package without
// the hook is no bad input: the same test runs the shell fixture
// elsewhere. NewDescendant skips naming the line to add, or fails under
// EXECTEST_STRICT=1; it never passes.
func TestOnlyHermeticWithoutHook(t *testing.T) {
	defer check.WithoutHermeticHook()()
	defer check.AsWhereOnlyHermetic()()
	for strict, want := range map[string]string{"0": "skip", "1": "fail"} {
		t.Setenv("EXECTEST_STRICT", strict)
		f := systemtest.RunFake(t, func(tb testing.TB) { exectest.NewDescendant(tb) })
		f.WantVerdict(t, want, "fixture hook: got none, want exectest.VerifyTestMain(m) as TestMain", "the fixture is the test binary", "func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }")
	}
}

// A run that panics is reported with its value and stack, and the
// cleanup still kills the fixture.
func TestRunPanicsLeavesNothing(t *testing.T) {
	var d *exectest.Descendant
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d = exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd := exec.Command(d.Argv()[0], d.Argv()[1:]...)
			cmd.Stdout = new(strings.Builder)
			//execcheck:ignore a runner broken on purpose: the bad-input test needs one
			if err := cmd.Start(); err != nil {
				return err
			}
			<-ctx.Done()
			defer cmd.Wait()
			cmd.Process.Kill()
			panic("runner gave up")
		})
	})
	f.WantVerdict(t, "fail", "run panicked: runner gave up", "fixture_test.go")
	if id, ok := check.FixtureOf(d).Process(); !ok || id.Alive() {
		t.Errorf("descendant %v after the check and its cleanup: got alive (or unknown), want killed", id)
	}
}

func TestWaitAlive(t *testing.T) {
	t.Parallel()
	t.Run("proves", func(t *testing.T) {
		t.Parallel()
		d := exectest.NewDescendant(t, exectest.Lifetime(5*time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
		if err := cancelpolicy.Apply(cmd); err != nil {
			t.Fatal(err)
		}
		//execcheck:ignore tests cancelpolicy.Apply on the waiting fixture, which it stops
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		defer cancel()
		if err := d.WaitAlive(ctx); err != nil {
			t.Fatalf("WaitAlive: got %v, want nil", err)
		}
		if id, ok := check.FixtureOf(d).Process(); !ok || !id.Alive() {
			t.Errorf("Process after WaitAlive: got %v, %v, want a live process", id, ok)
		}
	})
	t.Run("times out saying what it saw", func(t *testing.T) {
		t.Parallel()
		d := exectest.NewDescendant(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		err := d.WaitAlive(ctx)
		if err == nil || !strings.Contains(err.Error(), "no report from the fixture child") || ctx.Err() == nil {
			t.Fatalf("WaitAlive with nothing started: got %v, want a deadline error saying no report came from the fixture child", err)
		}
	})
}
