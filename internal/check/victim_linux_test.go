package check_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/internal/watchdog"
)

// The tests of what a killed or interrupted test binary leaves behind
// re-execute this test binary as the victim: TestVictim, turned on by
// victimEnv, makes a fixture, runs it, reports it on stdout and waits for
// what the parent does to it.
const (
	victimEnv        = "EXECTEST_VICTIM_SHAPE"   // "shell" or "hermetic"
	victimHandlerEnv = "EXECTEST_VICTIM_HANDLER" // "" none, "own" a signal.Notify of its own, "ignore" signal.Ignore(SIGINT)
	victimDeathEnv   = "EXECTEST_VICTIM_DEATH"   // how the victim dies by itself once ready (see victimDeaths); "" waits for the parent
	nextRunEnv       = "EXECTEST_NEXT_RUN"       // turns TestNextRun on
)

// victimDeaths are the ways a victim ends by itself once its fixture is
// ready: with the fixture in use, no cleanup of its runs.
var victimDeaths = map[string]func(){
	"exit":    func() { os.Exit(1) },
	"panic":   func() { go func() { panic("victim: a panic in another goroutine") }() },
	"timeout": func() {}, // the parent gave it a -test.timeout, which panics
	"testmain": func() {
		close(victimReady) // its TestMain gives up (see victimTestMain)
	},
}

// victimReady is closed when the victim is ready to die in its TestMain.
var victimReady = make(chan struct{})

// victimTestMain is what a victim's TestMain does besides the tests: with
// the death "testmain", it ends the process from TestMain, log.Fatal, in
// the middle of a test, as a TestMain's own deadline or failed setup
// watcher does.
func victimTestMain() {
	if os.Getenv(victimDeathEnv) == "testmain" {
		go func() {
			<-victimReady
			log.Fatal("victim: TestMain gives up")
		}()
	}
}

func init() { testMainHook = victimTestMain }

func TestVictim(t *testing.T) {
	shape := testenv.OnlyAsHelper(t, victimEnv)
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
	desc, _ := check.FixtureOf(d).Process()
	child, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	folders, _ := filepath.Glob(filepath.Join(os.TempDir(), "exectest-*-"+check.FixtureOf(d).Token()+"-*"))
	if len(folders) != 1 {
		t.Fatalf("fixture folder: got %v, want one", folders)
	}
	fmt.Printf("victim: tracked by %s\n", check.FixtureOf(d).Tracker())
	fmt.Printf("victim: folder %s\n", folders[0])
	if cg, ok := strings.CutPrefix(check.FixtureOf(d).Tracker(), "cgroup v2 "); ok {
		fmt.Printf("victim: cgroup %s\n", cg)
	}
	for _, id := range []proc.Identity{child, desc} {
		fmt.Printf("victim: process %d %d\n", id.PID, id.Start)
	}
	if w, ok := watchdog.Running(); ok {
		fmt.Printf("victim: watchdog %d %d\n", w.PID, w.Start)
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
		ignored := testenv.SigIgnored(t, os.Getpid(), syscall.SIGINT)
		// Discarded when sent, as SIGINT is ignored: nothing is delivered later.
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		fmt.Printf("victim: with a fixture in use, SIGINT ignored %v; after one, the descendant alive %v\n", ignored, desc.Alive())
	default:
		fmt.Println("victim: ready")
		if die := victimDeaths[os.Getenv(victimDeathEnv)]; die != nil {
			die()
		}
		time.Sleep(time.Minute)
		t.Fatal("victim: not killed within a minute")
	}
}

// TestNextRun is the next test binary after a victim was killed: it makes
// one fixture, and with it removes what dead runs left.
func TestNextRun(t *testing.T) {
	testenv.OnlyAsHelper(t, nextRunEnv)
	exectest.NewDescendant(t)
}

// noRaceExitSleep spares a helper test binary built with -race the race
// detector's second of sleep at exit.
var noRaceExitSleep = "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")

// A victim is TestVictim running in another process, and what it said of
// its fixture.
type victim struct {
	cmd      *exec.Cmd
	out      *bufio.Scanner
	stderr   bytes.Buffer
	said     []string
	folder   string
	cgroup   string
	tracker  string
	procs    []proc.Identity
	watchdog proc.Identity // zero if it said of none
}

// A victimSpec says what the victim does.
type victimSpec struct {
	shape   string   // the fixture's: "shell" or "hermetic"
	handler string   // see victimHandlerEnv
	death   string   // see victimDeathEnv
	args    []string // for its test binary (-test.timeout)
}

// startVictim starts the victim and returns once its fixture has proved
// it runs. Its fixture's folder goes in a TMPDIR of its own, where other
// test binaries running on the machine do not remove it. Whatever the
// test does to it, the victim's fixture processes, folder and cgroup are
// removed at the end (its orphans come back to this test process, the
// child subreaper, which reaps them).
func startVictim(t *testing.T, tmp string, s victimSpec) *victim {
	t.Helper()
	v, err := tryStartVictim(t, tmp, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tryStartVictim is startVictim, but returns an error for a victim that
// ended before its fixture proved it runs, once it has waited for it.
func tryStartVictim(t *testing.T, tmp string, s victimSpec) (*victim, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	v := &victim{cmd: exec.Command(exe, append([]string{"-test.run=^TestVictim$", "-test.count=1"}, s.args...)...)}
	v.cmd.Env = append(os.Environ(), noRaceExitSleep, "TMPDIR="+tmp, victimEnv+"="+s.shape, victimHandlerEnv+"="+s.handler, victimDeathEnv+"="+s.death)
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
		case strings.HasPrefix(rest, "watchdog "):
			if _, err := fmt.Sscanf(rest, "watchdog %d %d", &v.watchdog.PID, &v.watchdog.Start); err != nil {
				t.Fatalf("victim said %q: %v", line, err)
			}
		}
		if rest == "ready" || strings.HasPrefix(rest, "with a fixture in use") {
			break
		}
	}
	if len(v.procs) != 2 || v.folder == "" {
		v.cmd.Process.Kill()
		// Its stderr is whole, and no longer written, once Wait returns.
		err := v.wait()
		return v, fmt.Errorf("victim (%v): got no fixture; it said:\n%s\nstderr:\n%s", err, strings.Join(v.said, "\n"), v.stderr.String())
	}
	t.Logf("victim pid %d: fixture tracked by %s", v.cmd.Process.Pid, v.tracker)
	return v, nil
}

// killWatchdog kills the victim's watchdog, and waits until it is dead.
func (v *victim) killWatchdog(t *testing.T) {
	t.Helper()
	if v.watchdog.PID == 0 {
		t.Fatalf("victim: got no watchdog; it said:\n%s", strings.Join(v.said, "\n"))
	}
	if err := v.watchdog.Kill(); err != nil {
		t.Fatal(err)
	}
	if !testenv.AwaitDead(v.watchdog, 5*time.Second) {
		t.Fatalf("victim's watchdog %v: alive 5s after SIGKILL", v.watchdog)
	}
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

// remove kills the victim and what its fixture left, and reaps them, and
// its watchdog: all of them come back to this test process, the child
// subreaper, once the victim is gone.
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
	if v.watchdog.PID != 0 {
		// It exits once it has cleaned up after the victim.
		if !testenv.AwaitDead(v.watchdog, 5*time.Second) {
			v.watchdog.Kill()
			testenv.AwaitDead(v.watchdog, time.Second)
		}
		proc.Reap(v.watchdog)
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
