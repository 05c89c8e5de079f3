package proc_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/testenv"
)

// The package's own tests leave nothing running: checked as users would.
// The test binary is also the helper some tests start (see holdRole and
// leaderExitsRole).
func TestMain(m *testing.M) {
	testenv.RunHelper(helperRoles)
	exectest.VerifyTestMain(m)
}

// helperRoles are the roles this test binary plays as a helper; a file
// for one system adds its own in an init.
var helperRoles = map[string]func([]string){holdRole: holdCloseOnExec}

// holdRole makes the test binary a helper that holds a file, its one
// argument, open through a close-on-exec descriptor, as a child the test
// process is still starting holds copies of the test process's own, until
// it is killed.
const holdRole = "hold-close-on-exec"

func holdCloseOnExec(args []string) {
	path := args[0]
	if _, err := os.Open(path); err != nil { // Go opens with O_CLOEXEC
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("holding")
	time.Sleep(time.Minute)
}
