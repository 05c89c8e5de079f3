package exectest_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/internal/watchdog"
	"github.com/shirou/gopsutil/v4/process"
)

// winVictimEnv turns TestWindowsVictim on, saying how it dies.
const winVictimEnv = "EXECTEST_WINDOWS_VICTIM"

// TestWindowsVictim is a helper of TestKilledTestBinaryLeavesNothingOnWindows:
// a test binary that dies with a fixture in use, its descendant holding
// the command's output pipe.
func TestWindowsVictim(t *testing.T) {
	death := testenv.OnlyAsHelper(t, winVictimEnv)
	d := exectest.NewDescendant(t)
	var out bytes.Buffer
	cmd := exec.Command(d.Argv()[0], d.Argv()[1:]...)
	cmd.Stdout = &out
	//execcheck:ignore the victim dies with the command running: that is the test
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.WaitAlive(ctx); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("victim: argv %s\n", strings.Join(d.Argv(), " "))
	fmt.Println("victim: ready")
	switch death {
	case "exit":
		os.Exit(3)
	case "unguarded": // the negative control: no watchdog, then the same death
		w, ok := watchdog.Running()
		if !ok {
			t.Fatal("victim: no watchdog runs")
		}
		if p, err := os.FindProcess(w.PID); err == nil && w.Alive() {
			p.Kill()
			p.Wait()
		}
		os.Exit(3)
	case "panic":
		go func() { panic("victim: a panic in another goroutine") }()
	}
	time.Sleep(time.Minute) // killed meanwhile
	t.Fatal("victim: not dead within a minute")
}

// A test binary that dies with a fixture in use leaves nothing of it: its
// watchdog, which reads EOF from the pipe whose write end only the test
// process held, kills the fixture's processes (by handle, checked against
// the creation time) and removes its folder. Judged without the toolkit:
// no process whose command line carries the fixture's token, and no
// folder, within goneOnWine (Wine, not Windows: its processes start and
// end slower).
func TestKilledTestBinaryLeavesNothingOnWindows(t *testing.T) {
	for _, death := range []string{"exit", "panic", "kill", "unguarded"} {
		t.Run(death, func(t *testing.T) {
			t.Parallel()
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			v := exec.Command(exe, "-test.run=^TestWindowsVictim$", "-test.v")
			v.Env = append(os.Environ(), winVictimEnv+"="+death)
			stdout, err := v.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			//execcheck:ignore the victim, a test binary, is killed alone on purpose: its watchdog, not a cancel, must remove the fixture
			if err := v.Start(); err != nil {
				t.Fatal(err)
			}
			var token, folder string
			var seen []string
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				line := sc.Text()
				seen = append(seen, line)
				if argv, ok := strings.CutPrefix(line, "victim: argv "); ok {
					token, folder = tokenAndFolder(argv)
				}
				if line == "victim: ready" {
					break
				}
			}
			if token == "" {
				v.Process.Kill()
				v.Wait()
				t.Fatalf("victim: got no fixture ready, want one; it said:\n%s", strings.Join(seen, "\n"))
			}
			if death == "kill" {
				v.Process.Kill()
			}
			go func() { // the rest of its output, so that it never blocks on it
				for sc.Scan() {
				}
			}()
			err = v.Wait()
			died := time.Now()
			var left []string
			var there bool
			gone := backoff.Poll(goneOnWine, time.Millisecond, 50*time.Millisecond, func() bool {
				left = withArg(token)
				_, serr := os.Stat(folder)
				there = serr == nil
				return len(left) == 0 && !there
			})
			if death == "unguarded" {
				// Without its watchdog the same death leaves the fixture:
				// what the check above looks for can be there.
				if gone {
					t.Errorf("victim without a watchdog: got nothing left, want its fixture's processes and folder left (the check sees nothing)")
				}
				for _, pid := range pidsWithArg(token) {
					if p, err := process.NewProcess(pid); err == nil {
						p.Kill()
					}
				}
				proc.RemoveAll(folder)
				return
			}
			if !gone {
				t.Errorf("after the victim died (%v): got processes %q and the folder there %v %v later, want none and no folder", err, left, there, time.Since(died).Round(time.Millisecond))
			}
		})
	}
}

// goneOnWine bounds how long after the test binary's death its fixture
// may still be seen.
const goneOnWine = 5 * time.Second

// tokenAndFolder reads the fixture's token and folder from its argv.
func tokenAndFolder(argv string) (token, folder string) {
	for _, a := range strings.Fields(argv) {
		if v, ok := strings.CutPrefix(a, "-exectest.token="); ok {
			token = v
		}
		if v, ok := strings.CutPrefix(a, "-exectest.marker="); ok {
			folder = filepath.Dir(v)
		}
	}
	return token, folder
}

// pidsWithArg lists the pids of the processes an argument of which
// holds s.
func pidsWithArg(s string) []int32 {
	pids, _ := process.Pids()
	var out []int32
	for _, pid := range pids {
		if p, err := process.NewProcess(pid); err == nil {
			if args, err := p.CmdlineSlice(); err == nil && strings.Contains(strings.Join(args, " "), s) {
				out = append(out, pid)
			}
		}
	}
	return out
}

// withArg lists the live processes an argument of which holds s, read by
// gopsutil directly.
func withArg(s string) []string {
	pids, _ := process.Pids()
	var out []string
	for _, pid := range pids {
		p, err := process.NewProcess(pid)
		if err != nil {
			continue
		}
		if args, err := p.CmdlineSlice(); err == nil && strings.Contains(strings.Join(args, " "), s) {
			if run, err := p.IsRunning(); err == nil && run {
				out = append(out, fmt.Sprintf("pid %d: %s", pid, strings.Join(args, " ")))
			}
		}
	}
	return out
}
