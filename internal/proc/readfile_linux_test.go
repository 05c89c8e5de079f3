package proc_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"golang.org/x/sys/unix"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 5000} {
		want := bytes.Repeat([]byte("x"), size)
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := proc.ReadFile(path); err != nil || !bytes.Equal(got, want) {
			t.Errorf("ReadFile of %d bytes: got %d bytes, %v, want them all", size, len(got), err)
		}
	}
	if got, err := proc.ReadFile("/proc/self/status"); err != nil || !strings.HasPrefix(string(got), "Name:") {
		t.Errorf("ReadFile(/proc/self/status): got %.20q, %v, want it from Name:", got, err)
	}
	missing := filepath.Join(dir, "missing")
	_, err := proc.ReadFile(missing)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != missing {
		t.Errorf("ReadFile(%s): got %v, want a *fs.PathError for it that is fs.ErrNotExist", missing, err)
	}
}

func TestReadDirNames(t *testing.T) {
	dir := t.TempDir()
	want := []string{"a", "b", "c"}
	for _, n := range want {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := proc.ReadDirNames(dir)
	slices.Sort(got)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ReadDirNames: got %q, %v, want %q", got, err, want)
	}
	if _, err := proc.ReadDirNames(filepath.Join(dir, "a")); !errors.Is(err, unix.ENOTDIR) {
		t.Errorf("ReadDirNames of a file: got %v, want ENOTDIR", err)
	}
}

// BenchmarkReadFile reads a process's stat as a check does, against
// os.ReadFile: their ratio is what each of a check's twenty reads saves.
func BenchmarkReadFile(b *testing.B) {
	for _, r := range []struct {
		name string
		read func(string) ([]byte, error)
	}{{"os", os.ReadFile}, {"proc", proc.ReadFile}} {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := r.read("/proc/self/stat"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
