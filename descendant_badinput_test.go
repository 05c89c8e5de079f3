//go:build unix

package exectest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/systemtest"
)

// These change the process's environment or globals: not parallel.

func TestTMPDIRNotWritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	t.Setenv("TMPDIR", file) // a file, not a folder: mkdir fails even for root
	f := systemtest.RunFake(t, func(tb testing.TB) { exectest.NewDescendant(tb) })
	f.WantVerdict(t, "fail", "exectest.NewDescendant:", "not a directory", "TMPDIR", "must be a writable folder")
}
