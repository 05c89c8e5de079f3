package monitor

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
)

// A report with marker.Here names a pid in the test's namespace; the test
// reads the stat itself, and takes the process only if it holds the FIFO,
// as every fixture process does. One that does not, or is gone, is not
// the reporter.
func TestIdentifyHere(t *testing.T) {
	if proc.Portable() {
		t.Skip("the portable mode's fixture never reports marker.Here")
	}
	_, fifo := startOnFIFOs(t, "tok")
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := func(files ...*os.File) *exec.Cmd {
		cmd := exec.Command("/bin/sleep", "30")
		cmd.ExtraFiles = files // inherited, as the fixture's descriptor 9
		//execcheck:ignore sleep forks nothing: the kill at cleanup ends it
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	holder, stranger := start(f), start()
	want, err := proc.ReadStat(holder.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	st, id, reason, gone := identify(marker.Event{Kind: marker.Alive, PID: holder.Process.Pid, Stat: marker.Here}, fifo)
	if reason != "" || gone || id != (proc.Identity{PID: want.PID, Start: want.Start}) || st.PID != want.PID {
		t.Errorf("identify of the process holding the FIFO: got %v (stat pid %d), reason %q, gone %v, want pid %d, start %d", id, st.PID, reason, gone, want.PID, want.Start)
	}
	if _, _, reason, _ := identify(marker.Event{Kind: marker.Alive, PID: stranger.Process.Pid, Stat: marker.Here}, fifo); reason == "" {
		t.Errorf("identify of pid %d, which does not hold the FIFO: got it taken, want a reason", stranger.Process.Pid)
	}
	stranger.Process.Kill()
	stranger.Wait()
	_, _, reason, gone = identify(marker.Event{Kind: marker.Alive, PID: stranger.Process.Pid, Stat: marker.Here}, fifo)
	if !gone || !strings.Contains(reason, "no such process") {
		t.Errorf("identify of an exited pid: got reason %q, gone %v, want gone", reason, gone)
	}
}
