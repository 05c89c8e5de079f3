package cancelpolicy

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
)

// leaderExitsEnv, set, makes the test binary a process whose main thread
// exits while another thread of it runs on (a C program's pthread_exit in
// main): its stat reads Z, yet it lives.
const leaderExitsEnv = "CANCELPOLICY_TEST_LEADER_EXITS"

// The main goroutine must run on the main thread, for its exit to be the
// main thread's: locked in init, before TestMain.
func init() {
	if os.Getenv(leaderExitsEnv) != "" {
		runtime.LockOSThread()
	}
}

func TestMain(m *testing.M) {
	if os.Getenv(leaderExitsEnv) != "" {
		go func() {
			for {
				time.Sleep(time.Hour)
			}
		}()
		time.Sleep(10 * time.Millisecond) // the goroutine's thread starts
		os.Stdout.WriteString("ready\n")
		syscall.RawSyscall(syscall.SYS_EXIT, 0, 0, 0)
	}
	os.Exit(m.Run())
}

// A group whose one member's main thread exited while its other threads
// run on is not empty: taken for a zombie, Graceful would skip the
// SIGKILL after the grace and leave it running.
func TestLiveMemberOfLeaderExited(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), leaderExitsEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	//execcheck:ignore the helper runs until the cleanup kills and reaps it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid := cmd.Process.Pid
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("helper pid %d: got %q, %v, want ready", pid, line, err)
	}
	stat := func() string {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return string(b)
	}
	state := func() string {
		s := stat()
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			if f := strings.Fields(s[i+1:]); len(f) > 0 {
				return f[0]
			}
		}
		return ""
	}
	if !backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool { return state() == "Z" }) {
		t.Fatalf("helper pid %d: got stat %q, want its main thread exited (state Z) within 5s", pid, stat())
	}
	if !liveMember(pid) {
		t.Errorf("liveMember of group %d, its member's main thread exited, other threads live: got false, want true (stat %q)", pid, stat())
	}
	cmd.Process.Kill()
	if !backoff.Poll(5*time.Second, time.Millisecond, 20*time.Millisecond, func() bool { return !liveMember(pid) }) {
		t.Errorf("liveMember of group %d after SIGKILL: got true, want false within 5s: a zombie is gone (stat %q)", pid, stat())
	}
}
