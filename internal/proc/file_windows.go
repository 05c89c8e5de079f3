package proc

import (
	"fmt"
	"os"
)

// statFile checks that path exists. Windows names no file by device and
// inode here, and nothing reads another process's descriptors on Windows
// anyway (the portable mode holds no fileID to compare).
func statFile(path string) (fileID, error) {
	if _, err := os.Stat(path); err != nil {
		return fileID{}, fmt.Errorf("%w", err)
	}
	return fileID{}, nil
}

// ownGroup is none: Windows has no process groups of this kind, so
// SafeGroup allows none.
func ownGroup() (int, bool) { return 0, false }
