package execcheck

import (
	"go/parser"
	"go/token"
	"testing"
)

// TestWindowsOnly: a file builds only for windows by its name or by its
// build constraint, as go/build decides; one that may build elsewhere too
// keeps the build's platform.
func TestWindowsOnly(t *testing.T) {
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"run_windows.go", "", true},
		{"run_windows_test.go", "", true},
		{"run_windows_arm64.go", "", true},
		{"windows.go", "", false}, // no _: not a GOOS suffix
		{"run_linux.go", "", false},
		{"run_windows_extra.go", "", false},
		{"run.go", "//go:build windows\n\n", true},
		{"run.go", "// Copyright 2026.\n\n//go:build windows && (amd64 || arm64)\n\n", true},
		{"run.go", "//go:build windows && !cgo\n\n", true},
		{"run.go", "// +build windows\n\n", true},
		{"run.go", "//go:build windows || plan9\n\n", false},
		{"run.go", "//go:build !unix\n\n", false},
		{"run.go", "//go:build !linux\n\n", false},
		{"run.go", "//go:build unix\n\n", false},
		{"run.go", "", false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, c.name, c.head+"package p\n\n//go:build windows\n", parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if got := windowsOnly(fset, f); got != c.want {
			t.Errorf("%s with %q: got windows only %v, want %v", c.name, c.head, got, c.want)
		}
	}
}
