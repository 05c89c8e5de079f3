//go:build unix

package exectest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/exectest/exectest"
)

// These change the process's environment or globals: not parallel.

func TestTMPDIRNotWritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	t.Setenv("TMPDIR", file) // a file, not a folder: mkdir fails even for root
	f := runFake(t, func(tb testing.TB) { exectest.NewDescendant(tb) })
	f.wantVerdict(t, "fail", "exectest.NewDescendant:", "not a directory", "TMPDIR", "must be a writable folder")
}

func TestHermeticWithoutHook(t *testing.T) {
	restore := exectest.WithoutHermeticHook()
	defer restore()
	f := runFake(t, func(tb testing.TB) { exectest.NewDescendant(tb, exectest.Hermetic()) })
	f.wantVerdict(t, "fail", "fixture hook: got none, want exectest.VerifyTestMain(m) as TestMain", "func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }")
}

// A run that panics is reported with its value and stack, and the
// cleanup still kills the fixture.
func TestRunPanicsLeavesNothing(t *testing.T) {
	var d *exectest.Descendant
	f := runFake(t, func(tb testing.TB) {
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
	f.wantVerdict(t, "fail", "run panicked: runner gave up", "descendant_badinput_test.go")
	if id, ok := d.Process(); !ok || id.Alive() {
		t.Errorf("descendant %v after the check and its cleanup: got alive (or unknown), want killed", id)
	}
}
