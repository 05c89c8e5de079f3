//go:build !linux

package proc

import "os"

// ReadFile is os.ReadFile (see readfile_linux.go for why Linux has its own).
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
