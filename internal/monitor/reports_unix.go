//go:build unix

package monitor

import (
	"io"
	"os"
)

// openReports opens the fixture's report FIFO. O_RDWR keeps a writer
// open, so the reader never sees EOF between the fixture's reports, and a
// writer never blocks waiting for a reader; Close ends a blocked read.
func openReports(path string) (io.ReadCloser, error) {
	return os.OpenFile(path, os.O_RDWR, 0)
}
