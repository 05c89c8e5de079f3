//go:build unix

package proc_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// In the portable mode, which reads no descriptors, a dead test
// process's watchdog finds the fixture's processes by its reports, the
// trees below them, and the token in the arguments of a process that
// started no earlier than the first reported one; a process with the
// token that started before it (a wrapper of the code under test) and a
// stranger are spared.
func TestPortableRemainsFindByReportsTreesAndToken(t *testing.T) {
	testenv.PortableMode(t)
	token := fmt.Sprintf("tok%d", os.Getpid())
	wrapper := startWith(t, "exec sleep 30", "exectest-"+token+"-wrapper")
	time.Sleep(20 * time.Millisecond) // creation times tick in ms, or in 10 ms
	known := startWith(t, "/bin/sleep 30 & wait", "exectest-"+token)
	withToken := startWith(t, "while :; do sleep 1; done", "exectest-"+token+"-orphan")
	stranger, err := proc.Identify(testenv.StartSleep(t, "30").Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	var below proc.Identity
	backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		for _, pid := range proc.Children(known.PID) {
			below, _ = proc.Identify(pid)
		}
		return below.PID != 0
	})
	if below.PID == 0 {
		t.Fatal("the sleep below the known process never showed")
	}
	t.Cleanup(func() { below.Kill() })
	r := &proc.Remains{Owner: os.Getpid(), Token: token, Known: []proc.Identity{known}}

	killed := killRemains(r)

	for what, id := range map[string]proc.Identity{"known": known, "below the known": below, "with the token": withToken} {
		if !slices.Contains(killed, id) {
			t.Errorf("KillRemains: got %v, want the %s %v among them", killed, what, id)
		}
	}
	for what, id := range map[string]proc.Identity{"wrapper with the token, older than the known": wrapper, "stranger": stranger} {
		if slices.Contains(killed, id) || !id.Alive() {
			t.Errorf("KillRemains: got the %s %v killed, want it spared", what, id)
		}
	}
}

// killRemains is what the watchdog does: both looks of proc.KillRemains.
func killRemains(r *proc.Remains) []proc.Identity {
	killed, late := proc.KillRemains([]*proc.Remains{r})
	return append(killed, late()...)
}
