package proc_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/exectest/exectest"
)

// The package's own tests leave nothing running: checked as users would.
// The test binary is also the helper some tests start (see holdEnv).
func TestMain(m *testing.M) {
	if path := os.Getenv(holdEnv); path != "" {
		holdCloseOnExec(path)
		return
	}
	exectest.VerifyTestMain(m)
}

// holdEnv makes the test binary a helper that holds a file open through a
// close-on-exec descriptor, as a child the test process is still starting
// holds copies of the test process's own, until it is killed.
const holdEnv = "EXECTEST_HELPER_HOLD_CLOEXEC"

func holdCloseOnExec(path string) {
	if _, err := os.Open(path); err != nil { // Go opens with O_CLOEXEC
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("holding")
	time.Sleep(time.Minute)
}
