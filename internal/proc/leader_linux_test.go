package proc_test

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
)

// leaderExitsRole makes the test binary a helper whose main thread exits
// while its other threads run on, holding its stdout: a zombie leader of
// a live thread group, as a C program's pthread_exit in main makes.
const leaderExitsRole = "leader-exits"

// The main goroutine of that helper must run on the main thread, so that
// its exit is the main thread's: locked in init, before TestMain.
func init() {
	helperRoles[leaderExitsRole] = leaderExits
	if testenv.HelperRole() == leaderExitsRole {
		runtime.LockOSThread()
	}
}

// leaderExits says "ready" on stdout once another thread runs, then ends
// the main thread alone (SYS_EXIT, not exit_group). The sleeping
// goroutine, on another thread, keeps the process until it is killed.
func leaderExits([]string) {
	go func() {
		for {
			time.Sleep(time.Hour)
		}
	}()
	time.Sleep(10 * time.Millisecond) // the goroutine's thread starts
	fmt.Println("ready")
	syscall.RawSyscall(syscall.SYS_EXIT, 0, 0, 0)
}

// A process whose main thread exited (a zombie leader) still holds the
// pipes its other threads share; /proc/PID/fd, the leader's, is empty
// then, and the look for a pipe's holders found nothing: it reads the fds
// through a live thread (/proc/PID/task/TID/fd) too, and a report
// describes the process instead of taking it for a zombie.
func TestPipeHolderWhoseMainThreadExited(t *testing.T) {
	testenv.LinuxMode(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := testenv.HelperCommand(t, leaderExitsRole)
	cmd.Stdout = w
	//execcheck:ignore the helper runs until the cleanup kills and reaps it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, err := bufio.NewReader(r).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("helper pid %d: got %q, %v, want ready", cmd.Process.Pid, line, err)
	}
	id, err := proc.Identify(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// The premise: a zombie leader, other threads live, no fd of its own.
	if !backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool {
		s, err := id.Stat()
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", id.PID))
		return err == nil && s.State == "Z" && len(fds) == 0
	}) {
		s, err := id.Stat()
		t.Fatalf("helper %v: got %+v, %v, want its main thread a zombie (state Z) with an empty fd folder within 5s", id, s, err)
	}
	// It lives: a survivor check that took it for a zombie would pass a
	// runner that leaves it running.
	if !id.Alive() {
		t.Errorf("Alive of %v, main thread exited, other threads live: got false, want true", id)
	}
	target, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	pipes := map[string]string{target: "stdout"}
	if got := proc.PipeHolders(pipes, os.Getpid()); !containsID(got, id) {
		t.Errorf("PipeHolders of %s: got %v, want the helper %v, whose threads hold its write end", target, got, id)
	}
	p, ok := proc.Describe(id, "")
	if !ok {
		t.Fatalf("Describe of %v, main thread exited, other threads live: got none, want it described", id)
	}
	p.Label(pipes)
	t.Logf("report: %s", p)
	if line := p.String(); !strings.Contains(line, "main thread exited") || !strings.Contains(line, "holds the write end of the command's stdout "+target) || !strings.Contains(line, cmd.Path) {
		t.Errorf("report of %v: got %q, want its main thread's exit, its command line %s and the stdout pipe it holds", id, line, cmd.Path)
	}
	// Killed, its threads go too: then it is a zombie, and counts as dead.
	if err := id.Kill(); err != nil {
		t.Fatal(err)
	}
	if !backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool { return !id.Alive() }) {
		s, err := id.Stat()
		t.Errorf("Alive of %v after SIGKILL: got true (%+v, %v), want false within 5s: a zombie counts as dead", id, s, err)
	}
}

func containsID(ids []proc.Identity, id proc.Identity) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
