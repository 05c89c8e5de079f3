package proc_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"golang.org/x/sys/unix"
)

// The test process's descriptors are read by fstat, and a link only for a
// FIFO: the answer must be /proc's, and a named FIFO whose inode number
// is a pipe's must not pass for that pipe.
func TestOwnDescriptorsAsProcSeesThem(t *testing.T) {
	testenv.LinuxMode(t)
	t.Run("by the pipes' device", ownDescriptorsAsProcSeesThem)
	t.Run("by the links", func(t *testing.T) {
		proc.WithoutPipefs(t)
		ownDescriptorsAsProcSeesThem(t)
	})
}

func ownDescriptorsAsProcSeesThem(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	pipe, err := proc.FDTarget(os.Getpid(), int(r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	fifoPath := filepath.Join(t.TempDir(), "fifo")
	if err := unix.Mkfifo(fifoPath, 0o600); err != nil {
		t.Fatal(err)
	}
	fifo, err := os.OpenFile(fifoPath, os.O_RDWR, 0) // O_RDWR: no wait for a writer
	if err != nil {
		t.Fatal(err)
	}
	defer fifo.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(fifo.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	asPipe := "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"

	only := map[string]string{pipe: "stdout", asPipe: "stderr"}
	got := proc.FDsOn(os.Getpid(), only)
	want := []proc.FD{{Num: int(r.Fd()), Target: pipe}, {Num: int(w.Fd()), Target: pipe, Write: true}}
	slices.SortFunc(want, func(a, b proc.FD) int { return a.Num - b.Num })
	if !slices.Equal(got, want) {
		t.Errorf("FDsOn(test process, %s and a named FIFO's inode as a pipe): got %+v, want %+v", pipe, got, want)
	}
	if fromProc := proc.ProcFDs(os.Getpid(), only); !slices.Equal(got, fromProc) {
		t.Errorf("FDsOn(test process): got %+v, want what /proc says, %+v", got, fromProc)
	}
	pipes := proc.Pipes(os.Getpid())
	if !pipes[pipe] || pipes[asPipe] {
		t.Errorf("Pipes(test process): got %v, want %s and not the named FIFO's %s", slices.Sorted(maps.Keys(pipes)), pipe, asPipe)
	}
	if fromProc := proc.ProcPipes(os.Getpid()); !maps.Equal(pipes, fromProc) {
		t.Errorf("Pipes(test process): got %v, want what /proc says, %v", slices.Sorted(maps.Keys(pipes)), slices.Sorted(maps.Keys(fromProc)))
	}
}

// A target that is not a pipe is no FIFO's: it needs every link read.
func TestOwnDescriptorsOnAFile(t *testing.T) {
	testenv.LinuxMode(t)
	f, err := os.Create(filepath.Join(t.TempDir(), "file"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := proc.FDsOn(os.Getpid(), map[string]string{f.Name(): "stdout"})
	if want := []proc.FD{{Num: int(f.Fd()), Target: f.Name(), Write: true}}; !slices.Equal(got, want) {
		t.Errorf("FDsOn(test process, %s): got %+v, want %+v", f.Name(), got, want)
	}
}
