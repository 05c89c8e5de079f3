package proc_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// The portable mode reads every start against one boot time: in a
// container gopsutil reads it from /proc/uptime against the clock, to the
// second, so that a process read twice could start a second apart and
// seem gone. With the boot time out of gopsutil's sight (HOST_PROC holding
// the process alone), a read against a boot time read anew changes.
func TestPortableStartsReadAgainstOneBootTime(t *testing.T) {
	pid := testenv.StartSleep(t, "30").Process.Pid
	before, err := proc.PortableReadStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink("/proc/"+strconv.Itoa(pid), filepath.Join(dir, strconv.Itoa(pid))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOST_PROC", dir)
	after, err := proc.PortableReadStat(pid)
	if err != nil || after.Start != before.Start {
		t.Errorf("start of pid %d read again, no boot time in sight: got %d (%v), want %d, as before", pid, after.Start, err, before.Start)
	}
}
