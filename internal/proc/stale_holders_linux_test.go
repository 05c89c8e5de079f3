package proc_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// A killed run's fixture processes, without a cgroup, are found by the
// FIFO they hold and killed, whether its folder is still there or was
// removed already; holders of a running owner's FIFO, of a file that is no
// FIFO, or of a FIFO elsewhere live on.
func TestRemoveStaleKillsHoldersOfDeadRunsFIFOs(t *testing.T) {
	testenv.LinuxMode(t)
	dir, elsewhere := t.TempDir(), t.TempDir()
	dead := deadOwnerTag(t)
	holders := map[string]proc.Identity{}
	holders["dead owner's FIFO"] = testenv.HoldFIFO(t, testenv.FixtureFolder(t, dir, "exectest-"+dead+"-tok1-x"))
	removed := testenv.FixtureFolder(t, dir, "exectest-"+dead+"-tok2-x")
	holders["dead owner's FIFO, folder removed"] = testenv.HoldFIFO(t, removed)
	if err := os.RemoveAll(filepath.Dir(removed)); err != nil {
		t.Fatal(err)
	}
	holders["running owner's FIFO"] = testenv.HoldFIFO(t, testenv.FixtureFolder(t, dir, "exectest-"+proc.OwnerTag()+"-tok3-x"))
	plain := filepath.Join(dir, "exectest-"+dead+"-tok4-x", "marker")
	os.Mkdir(filepath.Dir(plain), 0o755)
	os.WriteFile(plain, nil, 0o600)
	holders["dead owner's plain file"] = testenv.HoldFIFO(t, plain)
	holders["dead owner's FIFO in another folder"] = testenv.HoldFIFO(t, testenv.FixtureFolder(t, elsewhere, "exectest-"+dead+"-tok5-x"))
	killed := map[string]bool{
		"dead owner's FIFO":                   true,
		"dead owner's FIFO, folder removed":   true,
		"running owner's FIFO":                false,
		"dead owner's plain file":             false,
		"dead owner's FIFO in another folder": false,
	}

	proc.RemoveStale(dir, "exectest-")

	for name, id := range holders {
		// SIGKILL takes effect at once, the teardown a moment later.
		end := time.Now().Add(5 * time.Second)
		for id.Alive() && killed[name] && time.Now().Before(end) {
			time.Sleep(10 * time.Millisecond)
		}
		if alive := id.Alive(); alive == killed[name] {
			t.Errorf("holder of the %s (%v) after RemoveStale: got alive %v, want %v", name, id, alive, !killed[name])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "exectest-"+dead+"-tok1-x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dead owner's folder after RemoveStale: got %v, want removed", err)
	}
}
