package proc_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// What a watchdog kills of a fixture whose test process died: the known
// processes and the trees below them, and the holders of a FIFO of the
// fixture's folder, which no report named; never a stranger, nor a pid
// known with another start time (recycled since). Then it removes the
// folder.
func TestRemainsKillsTheFixtureOnly(t *testing.T) {
	testenv.LinuxMode(t)
	marker := testenv.FixtureFolder(t, t.TempDir(), "exectest-"+proc.OwnerTag()+"-tok-x")
	root, below := startTree(t)
	holder := testenv.HoldFIFO(t, marker)
	_, stranger := startSleep(t)
	r := proc.Remains{
		Owner: os.Getpid(),
		Token: "tok",
		Dir:   filepath.Dir(marker),
		Known: []proc.Identity{root, {PID: stranger.PID, Start: stranger.Start + 1}},
	}
	want := map[string]proc.Identity{"known": root, "below the known": below, "FIFO holder": holder}

	killed := killRemains(&r)

	for what, id := range want {
		if !slices.Contains(killed, id) {
			t.Errorf("KillRemains: got %v, want the %s %v among them", killed, what, id)
		}
		if !testenv.AwaitDead(id, 5*time.Second) {
			t.Errorf("the %s %v after KillRemains: alive, want dead", what, id)
		}
	}
	if slices.Contains(killed, stranger) || !stranger.Alive() {
		t.Errorf("the stranger %v, known only by its pid with another start time: got killed, want spared", stranger)
	}
	proc.Reap(below) // an orphan of the killed root, reparented to this test process
	if removed, err := r.RemoveFolder(); err != nil || removed != r.Dir {
		t.Errorf("RemoveFolder: got %q, %v, want %s, nil", removed, err, r.Dir)
	}
	if _, err := os.Stat(r.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder after RemoveFolder: got %v, want it gone", err)
	}
}

// A folder or cgroup whose name does not carry the owner's tag is not the
// fixture's: the watchdog neither removes it nor kills what holds a FIFO
// in it.
func TestRemainsRefusesWhatIsNotTheOwners(t *testing.T) {
	testenv.LinuxMode(t)
	dir := t.TempDir()
	for _, name := range []string{"exectest-" + deadOwnerTag(t) + "-tok-x", "exectest-tok-x", "other"} {
		t.Run(name, func(t *testing.T) {
			marker := testenv.FixtureFolder(t, dir, name)
			holder := testenv.HoldFIFO(t, marker)
			r := proc.Remains{Owner: os.Getpid(), Token: "tok", Dir: filepath.Dir(marker), Cgroup: filepath.Join(dir, name)}
			if killed := killRemains(&r); len(killed) > 0 {
				t.Errorf("Kill: got %v killed, want none", killed)
			}
			if removed, _ := r.RemoveFolder(); removed != "" {
				t.Errorf("RemoveFolder: got %s removed, want nothing", removed)
			}
			if removed, _ := r.RemoveCgroup(); removed != "" {
				t.Errorf("RemoveCgroup: got %s removed, want nothing", removed)
			}
			if !holder.Alive() {
				t.Errorf("the holder of %s: got killed, want spared", marker)
			}
			if _, err := os.Stat(marker); err != nil {
				t.Errorf("the folder: got %v, want it kept", err)
			}
		})
	}
}

// The watchdog kills a fixture's cgroup whole and removes it. A known
// process outside the cgroup (run in one the code under test chose) makes
// it look for the holders of the fixture's FIFO too, which finds an
// orphan of that process that never reported.
func TestRemainsKillsAndRemovesTheCgroup(t *testing.T) {
	testenv.LinuxMode(t)
	for _, outside := range []bool{false, true} {
		t.Run(fmt.Sprintf("known process outside %v", outside), func(t *testing.T) {
			cg, err := proc.NewCgroup(fmt.Sprintf("remains-%d-%v", os.Getpid(), outside))
			if err != nil {
				t.Skipf("no cgroup here (the tracker falls back): %v", err)
			}
			t.Cleanup(func() { cg.Kill(); cg.Remove() })
			marker := testenv.FixtureFolder(t, t.TempDir(), "exectest-"+proc.OwnerTag()+"-tok-x")
			cmd, member := startSleep(t)
			if err := cg.Add(member.PID); err != nil {
				t.Fatal(err)
			}
			r := proc.Remains{Owner: os.Getpid(), Token: "tok", Dir: filepath.Dir(marker), Cgroup: cg.Path, Known: []proc.Identity{member}}
			want := []proc.Identity{member}
			if outside {
				elsewhere := testenv.SleepingProcess(t)
				orphan := testenv.HoldFIFO(t, marker)
				r.Known = append(r.Known, elsewhere)
				want = append(want, elsewhere, orphan)
			}
			killed := killRemains(&r)
			for _, id := range want {
				if !slices.Contains(killed, id) {
					t.Errorf("KillRemains: got %v, want %v among them", killed, id)
				}
			}
			cmd.Wait()
			if removed, err := r.RemoveCgroup(); err != nil || removed != cg.Path {
				t.Errorf("RemoveCgroup: got %q, %v, want %s, nil", removed, err, cg.Path)
			}
		})
	}
}

// startTree starts sh -c 'sleep 30 & wait' and returns the shell and the
// sleep below it, once it runs. The test kills and reaps both at the end.
func startTree(t *testing.T) (root, below proc.Identity) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `/bin/sleep 30 & echo $!; wait`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore one number is read, not to EOF; the cleanups kill the sleep below by identity and the shell, and reap both
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var pid int
	if _, err := fmt.Fscan(bufio.NewReader(out), &pid); err != nil {
		t.Fatal(err)
	}
	if root, err = proc.Identify(cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if below, err = proc.Identify(pid); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { below.Kill(); proc.Reap(below) })
	return root, below
}

// What started after the remains were listed (forked while they were
// being killed) is found by the look at late processes: a child of a
// listed process, and a holder of the fixture's FIFO that no listed
// process leads to; never a process that started before, nor a late one
// that is neither.
func TestRemainsLateLookFindsWhatStartedMeanwhile(t *testing.T) {
	testenv.LinuxMode(t)
	marker := testenv.FixtureFolder(t, t.TempDir(), "exectest-"+proc.OwnerTag()+"-tok-x")
	r := &proc.Remains{Owner: os.Getpid(), Token: "tok", Dir: filepath.Dir(marker)}
	early := testenv.HoldFIFO(t, marker)
	parent, in := forker(t)
	before := proc.Running()
	fmt.Fprintln(in, "fork")
	var child proc.Identity
	backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		for _, pid := range proc.Children(parent.PID) {
			child, _ = proc.Identify(pid)
			return child.PID != 0
		}
		return false
	})
	if child.PID == 0 {
		t.Fatal("the forker's child never showed")
	}
	holder := testenv.HoldFIFO(t, marker)
	stranger := testenv.SleepingProcess(t)

	late := proc.LateRemains([]*proc.Remains{r}, before, []proc.Identity{parent})

	for what, id := range map[string]proc.Identity{"child of a listed process": child, "late FIFO holder": holder} {
		if !slices.Contains(late, id) {
			t.Errorf("late look: got %v, want the %s %v among them", late, what, id)
		}
	}
	for what, id := range map[string]proc.Identity{"FIFO holder from before": early, "late stranger": stranger} {
		if slices.Contains(late, id) {
			t.Errorf("late look: got the %s %v among %v, want it left out", what, id, late)
		}
	}
}

// forker starts a shell that starts /bin/sleep 30 in the background for
// every line it reads; killed and reaped at the test's end, with what it
// started.
func forker(t *testing.T) (proc.Identity, io.Writer) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `while read x; do /bin/sleep 30 & done`)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the cleanup kills, by identity, the shell and every sleep it started, and reaps them
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sh: %v", err)
	}
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		kids := proc.Descendants(id.PID)
		cmd.Process.Kill()
		cmd.Wait()
		for _, pid := range kids {
			if k, err := proc.Identify(pid); err == nil {
				k.Kill()
				testenv.AwaitDead(k, 5*time.Second)
				proc.Reap(k)
			}
		}
	})
	return id, in
}
