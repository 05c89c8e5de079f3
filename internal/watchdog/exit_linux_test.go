package watchdog_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/internal/watchdog"
)

// exitEnv turns TestWatchdogExitHelper on.
const exitEnv = "EXECTEST_WATCHDOG_EXIT"

// exitBound is the promise: a test binary's watchdog is gone this long
// after the test binary exited, when nothing is left to clean up.
const exitBound = 100 * time.Millisecond

// exitAttempts is how many test binaries the test starts before it takes
// a watchdog outliving its bound for the rule, not the machine's load.
// Each attempt gives three times the time of the one before (100ms,
// 300ms, 900ms): on a loaded machine (8 CPU burners on 2 cores) the
// watchdog, or this test process, can wait that long for a CPU. Every
// bound stays under holderLife, so a watchdog that waits for the pipe's
// EOF (the defect: it lives as long as the holder) fails each attempt.
const exitAttempts = 3

// attemptBound is the bound of the attempt'th try (from 1).
func attemptBound(attempt int) time.Duration {
	b := exitBound
	for range attempt - 1 {
		b *= 3
	}
	return b
}

// The watchdog is gone within exitBound of its test binary's exit, even
// while another process holds a copy of the write end of its pipe, as a
// child the test binary forked holds one until its exec (seen: 3.2s late
// on a loaded machine). It waited for the pipe's EOF, which comes only
// when every write end is closed; it now also watches the test process
// itself. Both when the test binary exits while its watchdog serves, and
// when it exits at once, before the watchdog has started to.
func TestWatchdogGoneSoonAfterItsTestBinary(t *testing.T) {
	testenv.LinuxMode(t)
	for _, mode := range []string{exitServing, exitAtOnce} {
		t.Run(mode, func(t *testing.T) {
			var missed []string
			for attempt := 1; attempt <= exitAttempts; attempt++ {
				h := startExitHelper(t, mode)
				bound := attemptBound(attempt)
				if h.gone <= bound && !h.stillAlive {
					t.Logf("attempt %d: watchdog pid %d gone %v after test binary pid %d exited, while pid %d held the write end of %s (bound %v)", attempt, h.watchdog.PID, h.gone.Round(100*time.Microsecond), h.pid, h.holder.PID, h.pipe, bound)
					if attempt > 1 {
						t.Logf("the machine is loaded: the bound of %v was missed first (%s); passed with %v, below the holder's %v", exitBound, strings.Join(missed, "; "), bound, holderLife)
					}
					return
				}
				state := "gone"
				if h.stillAlive {
					state = "still alive"
				}
				missed = append(missed, fmt.Sprintf("attempt %d: watchdog pid %d (%s) %s %v after test binary pid %d exited (bound %v), pid %d (%s) holding a copy of the write end of %s", attempt, h.watchdog.PID, h.cmdline, state, h.gone.Round(time.Millisecond), h.pid, bound, h.holder.PID, h.holderCmdline, h.pipe))
			}
			t.Errorf("watchdog after its test binary's exit: got gone later than its bound in %d of %d attempts, want gone within %v (then %v, %v on a loaded machine):\n\t%s", exitAttempts, exitAttempts, exitBound, attemptBound(2), attemptBound(3), strings.Join(missed, "\n\t"))
		})
	}
}

// How the helper exits: once its watchdog serves, or at once.
const (
	exitServing = "serving"
	exitAtOnce  = "at once"
)

// exitHelper is what one run of TestWatchdogExitHelper showed.
type exitHelper struct {
	pid                    int
	watchdog, holder       proc.Identity
	cmdline, holderCmdline string
	pipe                   string        // the watchdog's pipe, "pipe:[N]"
	gone                   time.Duration // from the test binary's exit to the watchdog's, at most holderLife
	stillAlive             bool          // the watchdog was alive still after holderLife
}

// holderLife is how long the holder keeps the write end: the watchdog
// is waited for that long at most.
const holderLife = 2 * time.Second

// startExitHelper runs TestWatchdogExitHelper in a test binary of its
// own, waits for it to exit, and measures how long its watchdog outlives
// it. The cleanup kills the holder and reaps it and the watchdog, which
// come to this test process, the child subreaper, when the helper exits.
func startExitHelper(t *testing.T, mode string) exitHelper {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestWatchdogExitHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), exitEnv+"="+mode, "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the helper exits by itself; the test waits for it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := exitHelper{pid: cmd.Process.Pid}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		fmt.Sscanf(sc.Text(), "watchdog %d %d %s", &h.watchdog.PID, &h.watchdog.Start, &h.pipe)
		fmt.Sscanf(sc.Text(), "holder %d %d", &h.holder.PID, &h.holder.Start)
	}
	err = cmd.Wait()
	exited := time.Now()
	t.Cleanup(func() {
		for _, id := range []proc.Identity{h.holder, h.watchdog} {
			if id.PID != 0 {
				id.Kill()
				testenv.AwaitDead(id, 5*time.Second)
				proc.Reap(id)
			}
		}
	})
	if err != nil || h.watchdog.PID == 0 || h.holder.PID == 0 {
		t.Fatalf("helper pid %d: got %v, watchdog %v, holder %v, want exit status 0 and both named", h.pid, err, h.watchdog, h.holder)
	}
	// The premise: the holder still holds the write end.
	if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/3", h.holder.PID)); err != nil || target != h.pipe || !h.holder.Alive() {
		t.Fatalf("holder %v after the helper's exit: fd 3 %q, %v, want a live process holding %s (else this test checks nothing)", h.holder, target, err, h.pipe)
	}
	h.cmdline, h.holderCmdline = cmdline(h.watchdog.PID), cmdline(h.holder.PID)
	backoff.Poll(holderLife, 100*time.Microsecond, time.Millisecond, func() bool { return !h.watchdog.Alive() })
	h.gone = time.Since(exited)
	h.stillAlive = h.watchdog.Alive()
	return h
}

// cmdline is a process's command line, for a message.
func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// TestWatchdogExitHelper starts a watchdog, and a process that holds a
// copy of the write end of its pipe, as a child that the test binary
// forked holds one until its exec; it says who they are and exits, at
// once or once the watchdog serves, as exitEnv says.
func TestWatchdogExitHelper(t *testing.T) {
	mode := testenv.OnlyAsHelper(t, exitEnv)
	watchdog.Watch("tok-exit").End()
	wd, ok := watchdog.Running()
	if !ok {
		t.Fatal(watchdog.Err())
	}
	pipe, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/3", wd.PID))
	if err != nil {
		t.Fatal(err)
	}
	holder := exec.Command("/bin/sleep", fmt.Sprint(holderLife.Seconds()))
	holder.ExtraFiles = []*os.File{watchdog.Pipe()} // its descriptor 3
	//execcheck:ignore the holder outlives the helper on purpose; the parent test kills and reaps it
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	id, err := proc.Identify(holder.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if mode == exitServing {
		// It ignores SIGHUP once its init is done, just before it serves.
		backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
			return testenv.SigIgnored(t, wd.PID, syscall.SIGHUP)
		})
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Printf("watchdog %d %d %s\nholder %d %d\n", wd.PID, wd.Start, pipe, id.PID, id.Start)
	// Exit now, as a test binary does, with no check of what it leaves.
	os.Exit(0)
}
