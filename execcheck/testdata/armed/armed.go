//go:build unix

// Package armed holds commands whose Cancel os/exec still calls after the
// direct child exited: os/exec watches the context from Start until
// Wait, so a group kill in Cancel reaches the group there too when Wait
// comes late (after the readers of its output, or never: Process.Wait),
// or when the code calls cmd.Cancel() by hand.
package armed

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

func groupCommand(ctx context.Context, argv []string) *exec.Cmd { // want groupCommand:`^execcheck\[result: \[made\(1\) group waitdelay cancel\(group:KILL\)\]\]$`
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	return cmd
}

// stepA never calls cmd.Wait: it waits with Process.Wait (reduced from a
// real fix), so the watch of the context is never stopped and Cancel
// kills the group whenever the context is done. It was taken for a
// launcher.
type stepA struct{ cmd *exec.Cmd }

func (s *stepA) start(ctx context.Context, argv []string) error {
	s.cmd = groupCommand(ctx, argv)
	return s.cmd.Start()
}

func (s *stepA) wait() (int, error) {
	st, err := s.cmd.Process.Wait()
	if err != nil {
		return 0, err
	}
	return st.ExitCode(), nil
}

// stepB calls Wait, and then cmd.Cancel() by hand: the group kill comes
// after the direct child exited.
type stepB struct{ cmd *exec.Cmd }

func (s *stepB) start(ctx context.Context, argv []string) error {
	s.cmd = groupCommand(ctx, argv)
	return s.cmd.Start()
}

func (s *stepB) wait() error {
	err := s.cmd.Wait()
	_ = s.cmd.Cancel()
	return err
}

// stepC calls Wait at once: Cancel runs only while the direct child
// runs, a launcher.
type stepC struct{ cmd *exec.Cmd }

func (s *stepC) start(ctx context.Context, argv []string) error {
	s.cmd = groupCommand(ctx, argv)
	return s.cmd.Start() // want `^launcher: Cancel kills the group`
}

func (s *stepC) wait() error { return s.cmd.Wait() }

// ReadersFirst waits for the readers of the output before Wait: while a
// descendant holds the pipe, Wait is not called and Cancel still kills
// the group, so the reads end: ok, as cancelpolicy.Start with the same
// reads before its Wait. A descendant that left the group holds the pipe
// for ever, with either: only cancelpolicy.Contain() stops it.
func ReadersFirst(ctx context.Context, argv []string) error {
	cmd := groupCommand(ctx, argv)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(os.Stdout, stdout)
	}()
	wg.Wait()
	return cmd.Wait()
}

// DefaultByHand calls the default Cancel by hand: it kills the direct
// child only.
func DefaultByHand(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
		return err
	}
	err := cmd.Wait()
	_ = cmd.Cancel()
	return err
}

// ReadersFirstStderr is ReadersFirst with its stderr in a buffer and no
// WaitDelay (Atenea's ripgrep searcher): the reads of stdout are
// covered, but Wait waits for the copy of stderr itself, after its watch
// of the context ended: a job with its stdout redirected holds only
// that pipe.
func ReadersFirstStderr(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil { // want `^hang: stderr is a \*strings.Builder and nothing bounds Wait \(no WaitDelay\): Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\), and Wait \(armed.go:\d+\) comes only after the output is read to EOF, which lasts while any process holds the pipe, and os/exec calls Cancel until Wait, but Wait then waits for that copy after its watch of the context ended: a descendant that holds only that pipe \(a job with its stdout redirected\) keeps Wait waiting`
		return "", err
	}
	_, _ = io.Copy(os.Stdout, stdout)
	err = cmd.Wait()
	return stderr.String(), err
}
