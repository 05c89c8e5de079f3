package proc_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"golang.org/x/sys/unix"
)

func TestParseStat(t *testing.T) {
	testenv.LinuxMode(t)
	line := "4242 (a) (b c)) S 1 4240 4200 0 -1 4194560 111 0 0 0 0 0 0 0 20 0 1 0 19439 2654208 386"
	s, err := proc.ParseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	want := proc.Stat{PID: 4242, Comm: "a) (b c)", State: "S", PPID: 1, PGID: 4240, SID: 4200, Flags: 4194560, Threads: 1, Start: 19439, RawLine: line}
	if s != want {
		t.Errorf("ParseStat: got %+v, want %+v", s, want)
	}
	for _, bad := range []string{"", "12 no-parens S 1", "x (sh) S 1 2 3", "1 (sh) S 1 2 3"} {
		if _, err := proc.ParseStat(bad); err == nil {
			t.Errorf("ParseStat(%q): got nil error, want one", bad)
		}
	}
}

func startSleep(t *testing.T) (*exec.Cmd, proc.Identity) {
	t.Helper()
	cmd := exec.Command("/bin/sleep", "20")
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/sleep: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	return cmd, id
}

func TestKillSparesARecycledPID(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	_, id := startSleep(t)
	// The same pid with another start time is a stranger that reused it.
	stranger := proc.Identity{PID: id.PID, Start: id.Start + 1}
	if err := stranger.Kill(); err != nil {
		t.Fatalf("Kill of a recycled pid: got %v, want nil (nothing to do)", err)
	}
	if !id.Alive() {
		t.Fatalf("process %v after a kill aimed at a stranger with its pid: got dead, want alive", id)
	}
	if err := id.Kill(); err != nil {
		t.Fatalf("Kill: got %v, want nil", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for id.Alive() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if id.Alive() {
		t.Errorf("process %v after Kill: got alive, want dead", id)
	}
}

func TestZombieCountsAsDead(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	cmd := exec.Command("/bin/true")
	if err := cmd.Start(); err != nil {
		t.Skipf("start /bin/true: %v", err)
	}
	defer cmd.Wait()
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if s, err := id.Stat(); err == nil && s.Zombie() {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if id.Alive() {
		t.Errorf("an exited, unreaped child: got alive, want dead (zombies count as dead)")
	}
	if _, ok := proc.Describe(id, "x"); ok {
		t.Errorf("Describe of a zombie: got ok, want false")
	}
}

func TestSignalRefusesOwnAndInit(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	for _, pid := range []int{0, 1, os.Getpid()} {
		if err := (proc.Identity{PID: pid}).Signal(unix.Signal(0)); err == nil {
			t.Errorf("Signal to pid %d: got nil, want a refusal", pid)
		}
	}
}

func TestSafeGroup(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	for pgid, want := range map[int]bool{-1: false, 0: false, 1: false, unix.Getpgrp(): false, 1 << 30: true} {
		if got := proc.SafeGroup(pgid); got != want {
			t.Errorf("SafeGroup(%d): got %v, want %v", pgid, got, want)
		}
	}
}

func TestDescribe(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	cmd, id := startSleep(t)
	// Start returns once the child forked; its command line is readable
	// only once its exec has set up the new image: on a busy machine a
	// moment later (seen: comm "sleep", cmdline still empty).
	var p proc.Process
	var ok bool
	backoff.Poll(5*time.Second, time.Millisecond, 50*time.Millisecond, func() bool {
		p, ok = proc.Describe(id, "sleeper")
		return ok && p.Cmdline == "/bin/sleep 20"
	})
	if !ok {
		t.Fatalf("Describe of a live process: got not ok")
	}
	if p.PPID != os.Getpid() || p.Cmdline != "/bin/sleep 20" || p.Role != "sleeper" {
		t.Errorf("Describe: got %+v, want ppid %d, cmdline /bin/sleep 20, role sleeper", p, os.Getpid())
	}
	_ = cmd
}

func TestPipes(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	target, err := proc.FDTarget(os.Getpid(), int(r.Fd()))
	if err != nil || !proc.IsPipe(target) {
		t.Fatalf("target of a pipe's read end: got %q, %v, want pipe:[N]", target, err)
	}
	if !proc.Pipes(os.Getpid())[target] {
		t.Errorf("Pipes of the test process with %s open: got %v, want it listed", target, proc.Pipes(os.Getpid()))
	}
	r.Close()
	w.Close()
	if proc.Pipes(os.Getpid())[target] {
		t.Errorf("Pipes of the test process with %s closed: got it listed, want it gone", target)
	}
}

func TestResolveSameNamespace(t *testing.T) {
	testenv.LinuxMode(t)
	t.Parallel()
	_, id := startSleep(t)
	got, err := proc.Resolve(id.PID, id.Start)
	if err != nil || got != id {
		t.Errorf("Resolve in the test's namespace: got %v, %v, want %v", got, err, id)
	}
	if _, err := proc.Resolve(id.PID, id.Start+1); err == nil {
		t.Errorf("Resolve with a wrong start time: got nil error, want not found")
	}
}
