package exectest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/bwrap"
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
	f.wantVerdict(t, "fail", "fixture hook: got none, want fixtures.Main(m)", "func TestMain(m *testing.M) { fixtures.Main(m) }")
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
			if err := cmd.Start(); err != nil {
				return err
			}
			<-ctx.Done()
			defer cmd.Wait()
			cmd.Process.Kill()
			panic("runner gave up")
		})
	})
	f.wantVerdict(t, "fail", "run panicked: runner gave up", "badinput_test.go")
	if id, ok := d.Process(); !ok || id.Alive() {
		t.Errorf("descendant %v after the check and its cleanup: got alive (or unknown), want killed", id)
	}
}

// Without /proc where the test runs, the toolkit cannot identify anything:
// it skips with the reason, or fails under EXECTEST_STRICT=1. The test
// binary runs itself inside a sandbox whose /proc is empty.
func TestProcMissing(t *testing.T) {
	if os.Getenv("EXECTEST_INNER_PROC_MISSING") == "1" {
		d := exectest.NewDescendant(t)
		exectest.AssertCancel(t, d, policy(d.Argv()))
		return
	}
	needBwrap(t)
	exe, _ := os.Executable()
	for strict, want := range map[string]string{"0": "--- SKIP", "1": "--- FAIL"} {
		argv := append(bwrap.Args(bwrap.NoProc()), exe, "-test.run=^TestProcMissing$", "-test.v")
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "EXECTEST_INNER_PROC_MISSING=1", "EXECTEST_STRICT"+"="+strict)
		out, _ := cmd.CombinedOutput()
		s := string(out)
		if !strings.Contains(s, want) || !strings.Contains(s, "the toolkit needs /proc to identify processes") {
			t.Errorf("NewDescendant without /proc, %s=%s: got\n%s\nwant %s with the reason", "EXECTEST_STRICT", strict, s, want)
		}
	}
}
