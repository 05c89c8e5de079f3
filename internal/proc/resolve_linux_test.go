package proc_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// sandboxedShell is a shell in a PID namespace of its own that holds file
// open, prints its /proc/self/stat and becomes a sleep.
type sandboxedShell struct {
	cmd  *exec.Cmd
	file string
	stat proc.Stat
	err  error
}

func startSandboxedShells(t *testing.T, n int) []*sandboxedShell {
	t.Helper()
	dir := t.TempDir()
	shells := make([]*sandboxedShell, n)
	var wg sync.WaitGroup
	for i := range shells {
		s := &sandboxedShell{file: filepath.Join(dir, fmt.Sprint(i))}
		shells[i] = s
		if err := os.WriteFile(s.file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		script := `exec 9<"$0"; read -r st </proc/self/stat; echo "$st"; exec /bin/sleep 20`
		argv := append(testenv.BwrapArgs(testenv.BwrapUnsharePID()), "/bin/sh", "-c", script, s.file)
		s.cmd = exec.Command(argv[0], argv[1:]...)
		out, err := s.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		// Together, so that several start in the same clock tick.
		wg.Go(func() {
			//execcheck:ignore the script execs /bin/sleep: nothing below it; the test kills and reaps it
			if s.err = s.cmd.Start(); s.err != nil {
				return
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				s.err = fmt.Errorf("sandboxed shell's stat line: %w", err)
				return
			}
			s.stat, s.err = proc.ParseStat(line)
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, s := range shells {
			if s.cmd.Process != nil {
				s.cmd.Process.Kill()
				s.cmd.Wait()
			}
		}
	})
	for _, s := range shells {
		if s.err != nil {
			t.Fatal(s.err)
		}
	}
	return shells
}

// descends reports whether pid is ancestor or one of its descendants.
func descends(pid, ancestor int) bool {
	for pid > 1 {
		if pid == ancestor {
			return true
		}
		s, err := proc.ReadStat(pid)
		if err != nil {
			return false
		}
		pid = s.PPID
	}
	return false
}

// Sandboxes with PID namespaces of their own number their processes alike,
// and start times tick every 10 ms: started together, their shells report
// the same pid and start time. Each must resolve to its own process, or
// (without a file to tell them apart) to none; never to another's.
func TestResolveTellsIdenticalSandboxesApart(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	testenv.NeedBwrap(t)
	collisions := 0
	for round := 0; round < 5 && collisions == 0; round++ {
		shells := startSandboxedShells(t, 6)
		seen := map[[2]uint64]int{}
		for _, s := range shells {
			seen[[2]uint64{uint64(s.stat.PID), s.stat.Start}]++
		}
		for _, s := range shells {
			if seen[[2]uint64{uint64(s.stat.PID), s.stat.Start}] > 1 {
				collisions++
			}
			id, err := proc.ResolveHolding(s.stat.PID, s.stat.Start, s.file)
			if err != nil || !descends(id.PID, s.cmd.Process.Pid) {
				t.Errorf("ResolveHolding(%d, %d, its file) for the sandbox of bwrap pid %d: got pid %d, %v, want a process of that sandbox", s.stat.PID, s.stat.Start, s.cmd.Process.Pid, id.PID, err)
			}
			id, err = proc.Resolve(s.stat.PID, s.stat.Start)
			if err == nil && !descends(id.PID, s.cmd.Process.Pid) {
				t.Errorf("Resolve(%d, %d) for the sandbox of bwrap pid %d: got pid %d of another sandbox, want it or ErrAmbiguous", s.stat.PID, s.stat.Start, s.cmd.Process.Pid, id.PID)
			}
			if err != nil && !errors.Is(err, proc.ErrAmbiguous) {
				t.Errorf("Resolve(%d, %d): got %v, want a pid or ErrAmbiguous", s.stat.PID, s.stat.Start, err)
			}
		}
	}
	if collisions == 0 {
		t.Skip("no two sandboxes started in the same clock tick in 5 rounds: the case under test did not occur")
	}
	t.Logf("%d sandboxed shells shared their pid and start time with another", collisions)
}

// In the test's own namespace too, a process counts only if it holds the
// file.
func TestResolveHoldingSameNamespace(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	file := filepath.Join(t.TempDir(), "held")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	holder := exec.Command("/bin/sleep", "20")
	holder.ExtraFiles = []*os.File{f}
	if err := holder.Start(); err != nil {
		t.Skipf("start /bin/sleep: %v", err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	_, other := startSleep(t)
	id, err := proc.Identify(holder.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := proc.ResolveHolding(id.PID, id.Start, file); err != nil || got != id {
		t.Errorf("ResolveHolding of a process holding the file: got %v, %v, want %v", got, err, id)
	}
	if got, err := proc.ResolveHolding(other.PID, other.Start, file); !errors.Is(err, proc.ErrGone) {
		t.Errorf("ResolveHolding of a process not holding the file: got %v, %v, want ErrGone", got, err)
	}
}

// A process in a PID namespace of its own that reads the test's /proc
// (unshare --pid --fork without --mount-proc) reports the pid it has in the
// test's namespace. Holding the file, it is found by that pid; without a
// file to hold, Resolve stays strict and finds none.
func TestResolveHoldingPIDNamespaceWithoutProc(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	prefix := testenv.NeedUnshare(t)
	file := filepath.Join(t.TempDir(), "held")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	script := `exec 9<"$0"; read -r st </proc/self/stat; echo "$st"; exec /bin/sleep 20`
	cmd := exec.Command(prefix[0], append(prefix[1:], "/bin/sh", "-c", script, file)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the script execs /bin/sleep: nothing below it; the cleanup kills and reaps it
	testenv.Start(t, cmd)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("%q: stat line: %v", cmd.Args, err)
	}
	st, err := proc.ParseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if ns, err := proc.NSpid(st.PID); err != nil || len(ns) < 2 {
		t.Fatalf("NSpid of pid %d: got %v, %v, want it in a PID namespace below the test's", st.PID, ns, err)
	}
	want := proc.Identity{PID: st.PID, Start: st.Start}
	if got, err := proc.ResolveHolding(st.PID, st.Start, file); err != nil || got != want {
		t.Errorf("ResolveHolding(%d, %d, its file): got %v, %v, want %v", st.PID, st.Start, got, err, want)
	}
	if got, err := proc.Resolve(st.PID, st.Start); !errors.Is(err, proc.ErrGone) {
		t.Errorf("Resolve(%d, %d) without a file: got %v, %v, want ErrGone (the pid is not the one it has in its namespace)", st.PID, st.Start, got, err)
	}
}
