//go:build unix

package exectest_test

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"testing"

	"github.com/exectest/exectest"
)

// A copy goroutine that has not run yet has no frames in the goroutine
// profile. On a loaded machine it can stay so until the cancel; the count
// must still see it (CI once saw 0 for the fixed runner as nobody). With
// one processor and no yield between Start and the count, it has not run.
func TestCopyGoroutineCountedBeforeItRuns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := exectest.NewGoroutineScope()
	var out bytes.Buffer
	cmd := exec.Command("/bin/sleep", "20")
	cmd.Stdout = &out
	s.Do(context.Background(), func(context.Context) {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	})
	n := s.CopyGoroutines()
	cmd.Process.Kill()
	cmd.Wait()
	if n != 1 {
		t.Errorf("copy goroutines right after Start with a bytes.Buffer stdout: got %d, want 1", n)
	}
}
