package check_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/systemtest"
	"golang.org/x/sys/unix"
)

// A command may inherit descriptors the test process had before run: the
// test's own stdout and stderr, or a pipe the test opened. They are not
// pipes of the command's start, so they cannot be its leaks, and a correct
// runner passes whatever they are.

// inheritOutput gives the command the test process's own stdout and
// stderr: pipes under go test ./pkg, -json and CI, a terminal or a file
// elsewhere.
func inheritOutput(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		if err := cancelpolicy.Apply(cmd); err != nil {
			return err
		}
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		//execcheck:ignore tests cancelpolicy.Apply with inherited stdio on the waiting fixture
		return cmd.Run()
	}
}

// inheritStderr buffers the command's stdout (a pipe of its start) and
// gives it the test's own stderr.
func inheritStderr(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		if err := cancelpolicy.Apply(cmd); err != nil {
			return err
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		//execcheck:ignore tests cancelpolicy.Apply with a buffer and inherited stderr on the waiting fixture
		return cmd.Run()
	}
}

// TestCorrectRunnerInheritingTheTestsOutput is re-run by
// TestVerdictWhereverTheTestOutputGoes with its output to a file, a pipe
// and a terminal; run as part of the suite, it sees whatever go test gave.
func TestCorrectRunnerInheritingTheTestsOutput(t *testing.T) {
	for _, fd := range []int{1, 2} {
		target, err := proc.FDTarget(os.Getpid(), fd)
		t.Logf("the test process's fd %d: %s (err = %v)", fd, target, err)
	}
	for _, sh := range systemtest.Shapes {
		for name, r := range map[string]systemtest.Runner{"stdout and stderr": inheritOutput, "stderr": inheritStderr} {
			t.Run(sh.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.Opts...)
					exectest.AssertCancel(tb, d, r(d.Argv()))
				})
				f.WantVerdict(t, "pass")
			})
		}
	}
}

func TestCorrectRunnerWithAPipeOpenedBeforeRun(t *testing.T) {
	systemtest.NeedSight(t, "the fixture child's stdin, stdout and stderr")
	for _, sh := range systemtest.Shapes {
		t.Run(sh.Name, func(t *testing.T) {
			t.Parallel()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, sh.Opts...)
				exectest.AssertCancel(tb, d, func(ctx context.Context) error {
					cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
					if err := cancelpolicy.Apply(cmd); err != nil {
						return err
					}
					cmd.Stdout, cmd.Stderr = w, w
					//execcheck:ignore tests cancelpolicy.Apply with the test's own pipe on the waiting fixture
					return cmd.Run()
				})
			})
			w.Close()
			f.WantVerdict(t, "pass", "nothing to check", "fd 1 pipe:[", "(open in the test process before run)")
		})
	}
}

func TestPipeOpenedBeforeRunIsNotCalledTheCommands(t *testing.T) {
	// The default cancel orphans the descendant, which holds the pipe: the
	// survivor is reported, but the pipe is the test's, not the command's.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
			cmd.Stdout, cmd.Stderr = w, w
			//execcheck:ignore a runner broken on purpose: its survivor holds the test's pipe, not the command's
			return cmd.Run()
		})
	})
	w.Close()
	f.WantVerdict(t, "fail", "fixture processes alive after run returned: got 1, want 0", "(descendant)")
	if rep := f.Recorded(); commandsPipe.MatchString(rep) || strings.Contains(rep, "descriptors of the test process left open") {
		t.Errorf("message: got%s\nwant the test's own pipe neither called the command's nor reported left open", rep)
	}
}

// commandsPipe is how a message names one of the command's pipes.
var commandsPipe = regexp.MustCompile(`the command's std(in|out|err)`)

// TestVerdictWhereverTheTestOutputGoes re-runs this test binary for
// TestCorrectRunnerInheritingTheTestsOutput with its output to a file, to
// a pipe and to a terminal: a correct runner's verdict must not depend on
// where go test's output goes.
func TestVerdictWhereverTheTestOutputGoes(t *testing.T) {
	systemtest.NeedSight(t, "the test process's output descriptors as /proc names them")
	t.Parallel()
	const inner = "TestCorrectRunnerInheritingTheTestsOutput"
	outputs := []struct {
		name string
		// attach points the command's stdout and stderr somewhere, and
		// returns how to collect what was written once it has exited.
		attach func(t *testing.T, cmd *exec.Cmd) (collect func() string)
		want   string // what the re-run's fd 1 must point to
	}{
		{"file", toFile, "the test process's fd 1: /"},
		{"pipe", toPipe, "the test process's fd 1: pipe:["},
		{"terminal", toTerminal, "the test process's fd 1: /dev/pts/"},
	}
	for _, o := range outputs {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^"+inner+"$", "-test.v", "-test.count=1", "-test.timeout=2m")
			collect := o.attach(t, cmd)
			err := cmd.Run()
			out := collect()
			if err != nil || !strings.Contains(out, "--- PASS: "+inner+" ") {
				t.Fatalf("%s with its output to a %s: got err = %v, want a pass; output:\n%s", inner, o.name, err, out)
			}
			if !strings.Contains(out, o.want) {
				t.Errorf("re-run's stdout: got output\n%s\nwant it to say %q", out, o.want)
			}
			if n := strings.Count(out, "--- SKIP"); n > 0 {
				t.Errorf("skipped subtests: got %d, want 0; output:\n%s", n, out)
			}
		})
	}
}

func toFile(t *testing.T, cmd *exec.Cmd) func() string {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = f, f
	return func() string {
		defer f.Close()
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

func toPipe(t *testing.T, cmd *exec.Cmd) func() string {
	t.Helper()
	var out bytes.Buffer // not an *os.File: os/exec makes a pipe, as go test does
	cmd.Stdout, cmd.Stderr = &out, &out
	return out.String
}

// toTerminal gives the command a pseudo-terminal of its own, not as its
// controlling terminal: its stdout is a terminal all the same.
func toTerminal(t *testing.T, cmd *exec.Cmd) func() string {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("a terminal for the re-run's output: %v (needs /dev/ptmx and devpts)", err)
	}
	var n uint32
	// Not master.Fd(): that makes the descriptor blocking, and Close would
	// no longer end a Read.
	rc, err := master.SyscallConn()
	if err == nil {
		rc.Control(func(fd uintptr) {
			if err = unix.IoctlSetPointerInt(int(fd), unix.TIOCSPTLCK, 0); err == nil {
				n, err = unix.IoctlGetUint32(int(fd), unix.TIOCGPTN)
			}
		})
	}
	if err != nil {
		master.Close()
		t.Skipf("a terminal for the re-run's output: unlock /dev/ptmx: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Skipf("a terminal for the re-run's output: %v", err)
	}
	cmd.Stdout, cmd.Stderr = tty, tty
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		io.Copy(&out, master) // ends with EIO once no process holds the terminal
	}()
	return func() string {
		tty.Close()
		select {
		case <-read:
		case <-time.After(10 * time.Second):
			t.Errorf("terminal: still held 10s after the re-run exited: its output may be cut short")
		}
		master.Close()
		<-read
		return out.String()
	}
}
