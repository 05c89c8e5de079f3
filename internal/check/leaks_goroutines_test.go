//go:build unix

package check_test

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/goroutines"
)

// A copy goroutine that has not run yet has no frames in the goroutine
// profile. On a loaded machine it can stay so until the cancel; the count
// must still see it (CI once saw 0 for the fixed runner as nobody). With
// one processor and no yield between Start and the count, it has not run.
func TestCopyGoroutineCountedBeforeItRuns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := exectest.NewGoroutineScope()
	var out bytes.Buffer
	cmd := exec.Command("/bin/sleep", "20")
	cmd.Stdout = &out
	s.Do(context.Background(), func(context.Context) {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	})
	n := check.ScopeOf(s).CopyGoroutines()
	cmd.Process.Kill()
	cmd.Wait()
	if n != 1 {
		t.Errorf("copy goroutines right after Start with a bytes.Buffer stdout: got %d, want 1", n)
	}
}

// How run runs the command is read from run's own goroutine, the one in
// pprof.Do, innermost frame first: the call of os/exec it is in, and who
// called the Wait or the Start it waits in.
func TestHowRunRunsTheCommand(t *testing.T) {
	root := func(funcs ...string) goroutines.Group {
		g := goroutines.Group{Count: 1}
		for _, f := range append(funcs, "runtime/pprof.Do", "github.com/exectest/exectest.(*check).do.func1") {
			g.Frames = append(g.Frames, goroutines.Frame{Func: f})
		}
		return g
	}
	other := func(funcs ...string) goroutines.Group {
		g := goroutines.Group{Count: 1}
		for _, f := range funcs {
			g.Frames = append(g.Frames, goroutines.Frame{Func: f})
		}
		return g
	}
	copying := other("os.(*File).Read", "io.Copy", "os/exec.(*Cmd).writerDescriptor.func1")
	for _, c := range []struct {
		name     string
		gs       []goroutines.Group
		want     string
		starting bool // the sample looks again: run may yet return or Wait
	}{
		{"in Run", []goroutines.Group{root("os/exec.(*Cmd).Wait", "os/exec.(*Cmd).Run", "example.com/r.run"), copying}, "", false},
		{"in Run's Start", []goroutines.Group{root("os/exec.(*Cmd).Start", "os/exec.(*Cmd).Run", "example.com/r.run")}, "", false},
		{"in cancelpolicy's Start", []goroutines.Group{root("os/exec.(*Cmd).Start", "github.com/exectest/exectest/cancelpolicy.Start", "example.com/r.run")}, "cancelpolicy.Start", false},
		{"in Output", []goroutines.Group{root("os/exec.(*Cmd).Wait", "os/exec.(*Cmd).Run", "os/exec.(*Cmd).Output", "example.com/r.run")}, "Output", false},
		{"in CombinedOutput", []goroutines.Group{root("os/exec.(*Cmd).Wait", "os/exec.(*Cmd).Run", "os/exec.(*Cmd).CombinedOutput", "example.com/r.run")}, "CombinedOutput", false},
		{"in its own Wait", []goroutines.Group{root("os/exec.(*Cmd).Wait", "example.com/r.run"), copying}, "Start", false},
		// Whether a Wait of its own follows is not known yet: it may
		// return once the command started.
		{"in its own Start", []goroutines.Group{root("os/exec.(*Cmd).Start", "example.com/r.run")}, "", true},
		{"reading a StdoutPipe", []goroutines.Group{root("os.(*File).Read", "bufio.(*Scanner).Scan", "example.com/r.run")}, "Start", false},
		{"writing a StdinPipe", []goroutines.Group{root("os.(*File).Write", "example.com/r.run")}, "Start", false},
		{"in cancelpolicy.Run's Wait", []goroutines.Group{root("os/exec.(*Cmd).Wait", "github.com/exectest/exectest/cancelpolicy.(*Started).Wait", "github.com/exectest/exectest/cancelpolicy.Run", "example.com/r.run")}, "cancelpolicy.Run", false},
		{"in the Wait of cancelpolicy.Start's", []goroutines.Group{root("os/exec.(*Cmd).Wait", "github.com/exectest/exectest/cancelpolicy.(*Started).Wait", "example.com/r.run")}, "cancelpolicy.Start", false},
		{"in a select, its Wait in another goroutine", []goroutines.Group{root("runtime.selectgo", "example.com/r.run"), other("os/exec.(*Cmd).Wait", "example.com/r.run.func1")}, "", false},
		{"no goroutine of run's", []goroutines.Group{copying}, "", false},
	} {
		if got := check.RunCallOf(c.gs); got != c.want {
			t.Errorf("run %s: got %q, want %q", c.name, got, c.want)
		}
		if got := check.InOwnStart(c.gs); got != c.starting {
			t.Errorf("run %s: in its own Start: got %v, want %v", c.name, got, c.starting)
		}
	}
}
