package testenv

import (
	"io"
	"os"
)

// CopyTestBinary copies the running test binary to path, a new file
// executable by all, for tests that run it again as another user: the go
// build cache is not theirs to read.
func CopyTestBinary(path string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	src, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}
