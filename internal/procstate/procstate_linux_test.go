package procstate

import (
	"fmt"
	"os/exec"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
	"golang.org/x/sys/unix"
)

func TestFatalIn(t *testing.T) {
	cases := []struct {
		name   string
		status string
		want   bool
	}{
		{"nothing pending", "SigPnd:\t0000000000000000\nShdPnd:\t0000000000000000\n", false},
		{"SIGKILL shared", "ShdPnd:\t0000000000000100\n", true},
		{"SIGKILL own, even if caught", "SigPnd:\t0000000000000100\nSigCgt:\t0000000000000100\n", true},
		{"SIGTERM default", "ShdPnd:\t0000000000004000\n", true},
		{"SIGTERM ignored", "ShdPnd:\t0000000000004000\nSigIgn:\t0000000000004000\n", false},
		{"SIGTERM caught", "ShdPnd:\t0000000000004000\nSigCgt:\t0000000000004000\n", false},
		{"SIGTERM blocked", "ShdPnd:\t0000000000004000\nSigBlk:\t0000000000004000\n", false},
		{"SIGCHLD", "ShdPnd:\t0000000000010000\n", false},
	}
	for _, c := range cases {
		if got := fatalIn(c.status); got != c.want {
			t.Errorf("%s: fatalIn: got %v, want %v", c.name, got, c.want)
		}
	}
}

// start runs argv as a child of the test and returns its identity.
// awaitEnd polls w.End for up to 5s.
func awaitEnd(t *testing.T, w *Watch) End {
	t.Helper()
	var (
		e  End
		ok bool
	)
	if !backoff.Poll(5*time.Second, time.Millisecond, 50*time.Millisecond, func() bool { e, ok = w.End(); return ok }) {
		t.Fatalf("End: got nothing after 5s, want how the process ended")
	}
	return e
}

func TestDyingAndEnd(t *testing.T) {
	testenv.LinuxMode(t)
	//execcheck:ignore /bin/sleep starts nothing; the cleanup kills and reaps it
	cmd, id := start(t, "/bin/sleep", "10")
	if Dying(id) {
		t.Errorf("Dying of a sleeping process: got true, want false")
	}
	w, err := Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, ok := w.End(); ok {
		t.Errorf("End of a live process: got ok, want not yet")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	if !Dying(id) {
		t.Errorf("Dying of a killed process: got false, want true")
	}
	e := awaitEnd(t, w) // a zombie child: waitid without reaping
	if e.OnItsOwn() || e.Signal != syscall.SIGKILL {
		t.Errorf("End of a killed child: got %v, want killed by SIGKILL", e)
	}
	cmd.Wait() // os/exec can still reap it: nothing stole its status
	if !cmd.ProcessState.Sys().(syscall.WaitStatus).Signaled() {
		t.Errorf("Wait after End: got %v, want the child's own status, signal: killed", cmd.ProcessState)
	}
}

func TestEndOnItsOwn(t *testing.T) {
	testenv.LinuxMode(t)
	//execcheck:ignore sh -c 'read x; exit 3' starts nothing; the cleanup kills and reaps it
	_, id := start(t, "/bin/sh", "-c", "read x; exit 3")
	w, err := Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// The shell reads stdin, which os/exec gave /dev/null: it exits at once.
	e := awaitEnd(t, w)
	if !e.OnItsOwn() || !e.Exited || e.Status != 3 {
		t.Errorf("End of a child that exited 3: got %v, want exited with status 3", e)
	}
}

// A process that another process reaps: only the pidfd's exit information
// (Linux 6.15) can tell how it ended.
func TestEndReapedByAnother(t *testing.T) {
	testenv.LinuxMode(t)
	var u syscall.Utsname
	syscall.Uname(&u)
	var major, minor int
	fmt.Sscanf(unix.ByteSliceToString((*[65]byte)(unsafe.Pointer(&u.Release))[:]), "%d.%d", &major, &minor)
	if major < 6 || major == 6 && minor < 15 {
		t.Skipf("kernel %d.%d: the pidfd's exit information needs 6.15", major, minor)
	}
	cmd := exec.Command("/bin/sh", "-c", "/bin/sleep 0.3 & echo $!; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		t.Fatal(err)
	}
	id, err := proc.Identify(pid)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if e := awaitEnd(t, w); !e.OnItsOwn() || e.Status != 0 {
		t.Errorf("End of a grandchild that slept and exited: got %v, want exited with status 0", e)
	}
}
