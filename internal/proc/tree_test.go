package proc_test

import (
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/exectest/exectest/internal/proc"
)

// A seed given twice (a root the fixture also reported) is listed, and its
// tree walked, once: every walk reads /proc for each process in it.
func TestTreesWalksEachSeedOnce(t *testing.T) {
	cmd := exec.Command("/bin/sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sleep: %v", err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	walks := 0
	got := proc.TreesBy([]proc.Identity{id, id}, func(pid int) []int {
		if pid == id.PID {
			walks++
		}
		return nil
	})
	if !slices.Equal(got, []proc.Identity{id}) || walks != 1 {
		t.Errorf("Trees of %v given twice: got %v and %d walks of it, want it once and one walk", id, got, walks)
	}
	if got := proc.TreesBy([]proc.Identity{{PID: os.Getpid()}}, func(int) []int { return nil }); len(got) != 0 {
		t.Errorf("Trees of the test process: got %v, want nothing (it is never the fixture's)", got)
	}
}
