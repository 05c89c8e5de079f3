package check_test

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/testenv"
)

func TestMain(m *testing.M) {
	// As "sleep", this binary stands in for /bin/sleep in a sandbox.
	testenv.RunHelper(map[string]func([]string){"sleep": func([]string) { shortSleep() }})
	// Panic on any Cmd that is started and never waited for.
	os.Setenv("GODEBUG", "execwait=2")
	if testMainHook != nil {
		testMainHook()
	}
	// Serve as the hermetic fixture, and fail the run if any test leaves
	// a goroutine or a process behind.
	exectest.VerifyTestMain(m)
}

// testMainHook is what a test file of this package has TestMain do first
// (see victimTestMain).
var testMainHook func()

// shortSleep is a /bin/sleep that sleeps, as a real one does, but ends on
// its own long before its argument says, with status 0: a check must see
// that it was not the cancel that stopped it.
func shortSleep() {
	time.Sleep(150 * time.Millisecond)
	syscall.Exit(0) // not os.Exit: under -race it would sleep a second more

}
