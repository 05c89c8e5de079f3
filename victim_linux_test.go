package exectest_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// The tests of what a killed or interrupted test binary leaves behind
// re-execute this test binary as the victim: TestVictim, turned on by
// victimEnv, makes a fixture, runs it, reports it on stdout and waits for
// what the parent does to it.
const (
	victimEnv        = "EXECTEST_VICTIM_SHAPE"   // "shell" or "hermetic"
	victimHandlerEnv = "EXECTEST_VICTIM_HANDLER" // "" none, "own" a signal.Notify of its own, "ignore" signal.Ignore(SIGINT)
	nextRunEnv       = "EXECTEST_NEXT_RUN"       // turns TestNextRun on
)

func TestVictim(t *testing.T) {
	shape := os.Getenv(victimEnv)
	if shape == "" {
		t.Skip("a helper: runs only in a test binary that another test of this package starts")
	}
	handler := os.Getenv(victimHandlerEnv)
	var own chan os.Signal
	switch handler {
	case "own":
		own = make(chan os.Signal, 4)
		signal.Notify(own, syscall.SIGINT, syscall.SIGTERM)
	case "ignore":
		signal.Ignore(syscall.SIGINT)
	}
	var opts []exectest.DescendantOption
	if shape == "hermetic" {
		opts = append(opts, exectest.Hermetic())
	}
	d := exectest.NewDescendant(t, opts...)
	argv := d.Argv()
	cmd := exec.Command(argv[0], argv[1:]...)
	// A group of its own, as cancelpolicy.Apply gives: a signal to the
	// victim alone, or Ctrl-C to its group, does not reach the fixture.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The fixture's group, which has no other member, so that the Wait
	// does not wait for the descendant.
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.WaitAlive(ctx); err != nil {
		t.Fatal(err)
	}
	desc, _ := d.Process()
	child, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	folders, _ := filepath.Glob(filepath.Join(os.TempDir(), "exectest-*-"+d.Token()+"-*"))
	if len(folders) != 1 {
		t.Fatalf("fixture folder: got %v, want one", folders)
	}
	fmt.Printf("victim: tracked by %s\n", d.Tracker())
	fmt.Printf("victim: folder %s\n", folders[0])
	if cg, ok := strings.CutPrefix(d.Tracker(), "cgroup v2 "); ok {
		fmt.Printf("victim: cgroup %s\n", cg)
	}
	for _, id := range []proc.Identity{child, desc} {
		fmt.Printf("victim: process %d %d\n", id.PID, id.Start)
	}
	switch handler {
	case "own":
		fmt.Println("victim: ready")
		n := 0
		for wait := time.Minute; n < 2; wait = 5 * time.Second {
			select {
			case <-own:
				n++
				continue
			case <-time.After(wait):
			}
			break
		}
		_, err := os.Stat(folders[0])
		fmt.Printf("victim: own handler got %d; then the descendant alive %v, the folder there %v\n", n, desc.Alive(), err == nil)
	case "ignore":
		ignored := sigIgnored(t, syscall.SIGINT)
		// Discarded when sent, as SIGINT is ignored: nothing is delivered later.
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		fmt.Printf("victim: with a fixture in use, SIGINT ignored %v; after one, the descendant alive %v\n", ignored, desc.Alive())
	default:
		fmt.Println("victim: ready")
		time.Sleep(time.Minute)
		t.Fatal("victim: not killed within a minute")
	}
}

// sigIgnored reads from the kernel whether the process ignores sig.
func sigIgnored(t *testing.T, sig syscall.Signal) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			return mask&(1<<(sig-1)) != 0
		}
	}
	t.Fatal("no SigIgn line in /proc/self/status")
	return false
}

// TestNextRun is the next test binary after a victim was killed: it makes
// one fixture, and with it removes what dead runs left.
func TestNextRun(t *testing.T) {
	if os.Getenv(nextRunEnv) == "" {
		t.Skip("a helper: runs only in a test binary that another test of this package starts")
	}
	exectest.NewDescendant(t)
}

// noRaceExitSleep spares a helper test binary built with -race the race
// detector's second of sleep at exit.
var noRaceExitSleep = "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")

// A victim is TestVictim running in another process, and what it said of
// its fixture.
type victim struct {
	cmd     *exec.Cmd
	out     *bufio.Scanner
	stderr  bytes.Buffer
	said    []string
	folder  string
	cgroup  string
	tracker string
	procs   []proc.Identity
}

// startVictim starts the victim and returns once its fixture has proved
// it runs. Its fixture's folder goes in a TMPDIR of its own, where other
// test binaries running on the machine do not remove it. Whatever the
// test does to it, the victim's fixture processes, folder and cgroup are
// removed at the end (its orphans come back to this test process, the
// child subreaper, which reaps them).
func startVictim(t *testing.T, tmp, shape, handler string) *victim {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	v := &victim{cmd: exec.Command(exe, "-test.run=^TestVictim$", "-test.count=1")}
	v.cmd.Env = append(os.Environ(), noRaceExitSleep, "TMPDIR="+tmp, victimEnv+"="+shape, victimHandlerEnv+"="+handler)
	v.cmd.Stderr = &v.stderr
	v.cmd.WaitDelay = 5 * time.Second
	stdout, err := v.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	v.out = bufio.NewScanner(stdout)
	//execcheck:ignore the victim is killed on purpose: the test checks what a killed run leaves
	if err := v.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.remove(t) })
	for v.out.Scan() {
		line := v.out.Text()
		v.said = append(v.said, line)
		rest, ok := strings.CutPrefix(line, "victim: ")
		switch {
		case !ok:
		case strings.HasPrefix(rest, "folder "):
			v.folder = strings.TrimPrefix(rest, "folder ")
		case strings.HasPrefix(rest, "cgroup "):
			v.cgroup = strings.TrimPrefix(rest, "cgroup ")
		case strings.HasPrefix(rest, "tracked by "):
			v.tracker = strings.TrimPrefix(rest, "tracked by ")
		case strings.HasPrefix(rest, "process "):
			var id proc.Identity
			if _, err := fmt.Sscanf(rest, "process %d %d", &id.PID, &id.Start); err != nil {
				t.Fatalf("victim said %q: %v", line, err)
			}
			v.procs = append(v.procs, id)
		}
		if rest == "ready" || strings.HasPrefix(rest, "with a fixture in use") {
			break
		}
	}
	if len(v.procs) != 2 || v.folder == "" {
		v.cmd.Process.Kill()
		t.Fatalf("victim: got no fixture; it said:\n%s\nstderr:\n%s", strings.Join(v.said, "\n"), v.stderr.String())
	}
	t.Logf("victim pid %d: fixture tracked by %s", v.cmd.Process.Pid, v.tracker)
	return v
}

// wait reads the rest of what the victim says and waits for it to end.
func (v *victim) wait() error {
	for v.out.Scan() {
		v.said = append(v.said, v.out.Text())
	}
	return v.cmd.Wait()
}

// live lists the victim's fixture processes still alive after up to
// grace: the kernel tears killed processes down asynchronously.
func (v *victim) live(grace time.Duration) []proc.Identity {
	var live []proc.Identity
	backoff.Poll(grace, time.Millisecond, 50*time.Millisecond, func() bool {
		live = nil
		for _, id := range v.procs {
			if id.Alive() {
				live = append(live, id)
			}
		}
		return len(live) == 0
	})
	return live
}

// remove kills the victim and what its fixture left, and reaps them.
func (v *victim) remove(t *testing.T) {
	if v.cmd.ProcessState == nil {
		v.cmd.Process.Kill()
		v.cmd.Wait()
	}
	for _, id := range v.procs {
		id.Kill()
	}
	v.live(5 * time.Second)
	for _, id := range v.procs {
		proc.Reap(id)
	}
	if v.cgroup != "" {
		c := &proc.Cgroup{Path: v.cgroup}
		c.Kill()
		c.Remove()
	}
	if v.folder != "" {
		os.RemoveAll(v.folder)
	}
}

// leftovers lists what of the victim's fixture is still there: live
// processes, the folder, the cgroup.
func (v *victim) leftovers() []string {
	var left []string
	for _, id := range v.live(5 * time.Second) {
		left = append(left, "process "+id.String())
	}
	for _, path := range []string{v.folder, v.cgroup} {
		if _, err := os.Stat(path); path != "" && !errors.Is(err, os.ErrNotExist) {
			left = append(left, path)
		}
	}
	return left
}
