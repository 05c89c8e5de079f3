package proc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// RemoveAll removes path and what it holds, as [os.RemoveAll] does; where
// that fails, it removes the entries one by one, deepest first, with
// [os.Remove]. Wine 8 fails os.RemoveAll of Go 1.26 ("unlinkat: Invalid
// function": it lacks the POSIX-semantics delete that Go's Windows
// RemoveAll asks for), and a folder left there would be a fixture's
// remains; os.Remove works there.
func RemoveAll(path string) error {
	err := os.RemoveAll(path)
	if err == nil {
		return nil
	}
	var all []string
	filepath.WalkDir(path, func(p string, _ fs.DirEntry, werr error) error {
		if werr == nil {
			all = append(all, p)
		}
		return nil
	})
	slices.Reverse(all) // children before their folder
	var errs []error
	for _, p := range all {
		if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			errs = append(errs, rerr)
		}
	}
	if _, serr := os.Lstat(path); errors.Is(serr, fs.ErrNotExist) {
		return nil
	}
	return errors.Join(append([]error{err}, errs...)...)
}
