package main

import (
	"os"
	"path/filepath"
)

// shortPath returns the name to print for a file: relative to the
// current directory where that is shorter than the absolute path (also
// with ../), else the absolute path. It is go vet's convention
// (cmd/go's base.ShortPath, which go vet applies to its tool's output),
// and staticcheck's: plain findings, -sites and the -fix summary all
// print paths so. The JSON of -json is go/analysis's, whose posn stays
// absolute, as go vet -json's does.
func shortPath(path string) string {
	cwd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || len(rel) >= len(path) || !sameFile(rel, path) {
		return path
	}
	return rel
}

// sameFile reports whether the two names are one file (a symbolic link
// in the current directory's path can make the relative name another),
// or both name none.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return os.IsNotExist(errA) && os.IsNotExist(errB)
	}
	return os.SameFile(fa, fb)
}
