//go:build unix

// Package readsarmed holds shell commands whose output is read to EOF
// before Wait, with a Cancel that kills the group and no WaitDelay.
// os/exec calls Cancel until Wait, so a cancel while the output is read
// kills every process of the group that holds the pipe, also after the
// shell exited: the reads end and Wait follows. Not a launcher (Cancel
// is not only called while the shell runs) and not a hang.
package readsarmed

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// shell is reduced from real code: an agent's command line, run by bash
// in a group of its own, whose Cancel kills the group.
func shell(ctx context.Context, line string) *exec.Cmd { // want shell:`^execcheck\[result: \[made\(1\) group cancel\(group:KILL\)\]\]$`
	cmd := exec.CommandContext(ctx, "bash", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		return os.ErrProcessDone
	}
	return cmd
}

// Exec streams stdout and stderr in goroutines, waits for both, then for
// bash: ok. It was a hang ("a descendant that leaves it (setsid, a
// daemon) keeps Wait waiting"), which cancelpolicy.Start, the fix it
// advised, leaves alike.
func Exec(ctx context.Context, line string) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := shell(ctx, line)
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", "", err
	}
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		return "", "", err
	}
	if err := cmd.Start(); err != nil {
		return "", "", err
	}
	var stdout, stderr strings.Builder
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		buf := make([]byte, 4096)
		for {
			n, err := stdoutPipe.Read(buf)
			stdout.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		buf := make([]byte, 4096)
		for {
			n, err := stderrPipe.Read(buf)
			stderr.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	wg.Wait()
	err = cmd.Wait()
	return stdout.String(), stderr.String(), err
}

// StderrCopied reads stdout first, but os/exec copies stderr, with no
// WaitDelay: once stdout is read, Wait stops calling Cancel and waits for
// whatever still holds stderr.
func StderrCopied(ctx context.Context, line string) (string, error) {
	cmd := shell(ctx, line)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil { // want `^hang: `
		return "", err
	}
	var out strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := stdoutPipe.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return out.String(), cmd.Wait()
}

// WaitAtOnce calls Wait while a goroutine still reads: Wait sees bash
// exit, stops calling Cancel and closes the pipe; a job bash left keeps
// running: a launcher.
func WaitAtOnce(ctx context.Context, line string) error {
	cmd := shell(ctx, line)
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^launcher: Cancel kills the group`
		return err
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := stdoutPipe.Read(buf); err != nil {
				return
			}
		}
	}()
	return cmd.Wait()
}
