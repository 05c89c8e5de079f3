package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/testenv"
)

type procStat struct {
	state      byte
	ppid, pgid int
	cpuTicks   int
	start      int // clock ticks after boot: with the pid, who it is
}

// readStat parses /proc/PID/stat; ok is false when the process is gone
// (reaped).
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, false
	}
	// The command name, in parentheses, may itself hold spaces.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	num := func(j int) int { n, _ := strconv.Atoi(f[j]); return n }
	// Fields after the name, from 0: state, ppid, pgrp, ..., utime at 11,
	// stime at 12, starttime at 19.
	return procStat{state: f[0][0], ppid: num(1), pgid: num(2), cpuTicks: num(11) + num(12), start: num(19)}, true
}

// burnerCmdline is the cmdline of a burner just started. It reads empty
// for a moment after StartProcess returns: the exec is past its point of
// no return but has not set up the new argument pages yet. So it looks
// again, for a while, before returning what it read.
func burnerCmdline(pid int) string {
	end := time.Now().Add(5 * time.Second)
	for !strings.Contains(cmdline(pid), burnArg) && time.Now().Before(end) {
		time.Sleep(time.Millisecond)
	}
	return cmdline(pid)
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
}

func TestBurners(t *testing.T) {
	b, err := startBurners(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.stop() })
	pids := b.pids()
	if len(pids) != 2 {
		t.Fatalf("burners: got %d, want 2", len(pids))
	}
	for _, pid := range pids {
		if cl := burnerCmdline(pid); !strings.Contains(cl, burnArg) {
			t.Errorf("burner %d: cmdline %q, want it to contain %s", pid, cl, burnArg)
		}
		st, ok := readStat(pid)
		switch {
		case !ok || st.state == 'Z':
			t.Errorf("burner %d: not running", pid)
		case st.pgid != pids[0] || st.pgid == syscall.Getpgrp():
			t.Errorf("burner %d: pgid %d, want the first burner's %d (ours is %d)", pid, st.pgid, pids[0], syscall.Getpgrp())
		}
	}
	// Burning, not merely alive: both use CPU.
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for {
			st, _ := readStat(pid)
			if st.cpuTicks > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("burner %d: no CPU time after 5s", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	if err := b.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	for _, pid := range pids {
		if st, ok := readStat(pid); ok {
			t.Errorf("burner %d after stop: got state %c, want no /proc entry (killed and reaped)", pid, st.state)
		}
	}
	if err := b.stop(); err != nil {
		t.Errorf("second stop: %v", err)
	}

	none, err := startBurners(0)
	if err != nil || len(none.pids()) != 0 || none.stop() != nil {
		t.Errorf("no load: got %v burners, err %v", none.pids(), err)
	}
}

// helperParentRole makes the test binary a flakehunt stand-in that
// starts two burners, prints their pids and waits to be killed.
const helperParentRole = "flakehunt-parent"

func helperParent([]string) {
	b, err := startBurners(2)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(b.pids()[0], b.pids()[1])
	// Wait to be killed. Not select {}: with no other goroutine the
	// runtime ends that at once as a deadlock, and the helper's exit, not
	// its kill, took the burners along, sometimes before they were seen.
	time.Sleep(time.Hour)
}

// A flakehunt killed with SIGKILL runs no cleanup; Pdeathsig must take
// its burners along.
func TestBurnersDieWithParent(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := testenv.HelperCommand(t, helperParentRole)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the test kills its helper and checks that Pdeathsig takes the burners along
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var pids [2]int
	if _, serr := fmt.Sscan(line, &pids[0], &pids[1]); err != nil || serr != nil {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("helper: got %q, %v", line, err)
	}
	// When Pdeathsig is broken the burners outlive the helper as orphans:
	// kill them, while their cmdline shows that the pid is still theirs.
	t.Cleanup(func() {
		for _, pid := range pids {
			if strings.HasPrefix(cmdline(pid), exe+" "+burnArg) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	for _, pid := range pids {
		if c := burnerCmdline(pid); !strings.Contains(c, burnArg) {
			parent.Process.Kill()
			parent.Wait()
			t.Fatalf("burner %d: cmdline %q, want it to contain %s", pid, c, burnArg)
		}
	}
	parent.Process.Kill()
	parent.Wait()

	// Dead means gone, or a zombie (whose cmdline is empty) when this
	// container's init does not reap orphans.
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for {
			st, ok := readStat(pid)
			if !ok || st.state == 'Z' || !strings.Contains(cmdline(pid), burnArg) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("burner %d: still running (state %c) 5s after its parent was killed", pid, st.state)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
