package proc_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/exectest/exectest/internal/proc"
)

// holdFIFO starts a process that holds file open as a fixture process
// holds its FIFO (descriptor 9, kept across exec), and returns it once it
// does. The test kills and waits for it at the end.
func holdFIFO(t *testing.T, file string) proc.Identity {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `exec 9<>"$1" && echo holding && exec /bin/sleep 30`, "sh", file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the script execs /bin/sleep: nothing below it; the cleanup kills and reaps it
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "holding\n" {
		t.Fatalf("holder of %s: got %q, want \"holding\"", file, line)
	}
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// fixtureFolder makes dir/name with a FIFO named marker in it, as a
// fixture's folder, and returns the FIFO's path.
func fixtureFolder(t *testing.T, dir, name string) string {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(folder, "marker")
	if err := unix.Mkfifo(marker, 0o600); err != nil {
		t.Fatal(err)
	}
	return marker
}

// A killed run's fixture processes, without a cgroup, are found by the
// FIFO they hold and killed, whether its folder is still there or was
// removed already; holders of a running owner's FIFO, of a file that is no
// FIFO, or of a FIFO elsewhere live on.
func TestRemoveStaleKillsHoldersOfDeadRunsFIFOs(t *testing.T) {
	linuxMode(t)
	dir, elsewhere := t.TempDir(), t.TempDir()
	dead := deadOwnerTag(t)
	holders := map[string]proc.Identity{}
	holders["dead owner's FIFO"] = holdFIFO(t, fixtureFolder(t, dir, "exectest-"+dead+"-tok1-x"))
	removed := fixtureFolder(t, dir, "exectest-"+dead+"-tok2-x")
	holders["dead owner's FIFO, folder removed"] = holdFIFO(t, removed)
	if err := os.RemoveAll(filepath.Dir(removed)); err != nil {
		t.Fatal(err)
	}
	holders["running owner's FIFO"] = holdFIFO(t, fixtureFolder(t, dir, "exectest-"+proc.OwnerTag()+"-tok3-x"))
	plain := filepath.Join(dir, "exectest-"+dead+"-tok4-x", "marker")
	os.Mkdir(filepath.Dir(plain), 0o755)
	os.WriteFile(plain, nil, 0o600)
	holders["dead owner's plain file"] = holdFIFO(t, plain)
	holders["dead owner's FIFO in another folder"] = holdFIFO(t, fixtureFolder(t, elsewhere, "exectest-"+dead+"-tok5-x"))
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
