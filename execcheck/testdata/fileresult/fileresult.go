//go:build unix

// Package fileresult holds output files opened by a function of the
// package and returned behind io.WriteCloser: os/exec hands an *os.File
// to the child as it is, so there is no pipe and Wait is bounded.
package fileresult

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
)

// logFiles is reduced from real code: it opens the files a command's
// output goes to; each return gives *os.File or nil.
func logFiles(dir string) (io.WriteCloser, io.WriteCloser, error) {
	out, err := os.Create(dir + "/out")
	if err != nil {
		return nil, nil, err
	}
	errf, err := os.Create(dir + "/err")
	if err != nil {
		out.Close()
		return nil, nil, err
	}
	return out, errf, nil
}

// combined returns os.OpenFile's results as its own.
func combined(dir string) (io.WriteCloser, error) {
	return os.OpenFile(dir+"/all", os.O_CREATE|os.O_WRONLY, 0o644)
}

// Logged was a hang (an io.WriteCloser taken for a pipe): it is an
// orphan, the default Cancel kills the shell alone.
func Logged(ctx context.Context, dir, script string) error {
	out, errf, err := logFiles(dir)
	if err != nil {
		return err
	}
	defer out.Close()
	defer errf.Close()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout, cmd.Stderr = out, errf
	return cmd.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(no output pipe\)`
}

// Combined is the same through the forwarded results.
func Combined(ctx context.Context, dir, script string) error {
	w, err := combined(dir)
	if err != nil {
		return err
	}
	defer w.Close()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Stdout = w
	return cmd.Run() // want `^orphan: .*\(no output pipe\)`
}

// maybeFile returns a file or a buffer: what it returns may be a pipe.
func maybeFile(dir string) (io.Writer, error) {
	if dir == "" {
		return &limited{}, nil
	}
	return os.Create(dir + "/out")
}

type limited struct{ n int }

func (l *limited) Write(p []byte) (int, error) {
	if l.n += len(p); l.n > 1<<20 {
		return 0, errors.New("too much output")
	}
	return len(p), nil
}

// Mixed still has a pipe: hang.
func Mixed(ctx context.Context, dir, script string) error {
	w, err := maybeFile(dir)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Stdout = w
	return cmd.Run() // want `^hang: stdout is an io.Writer \(w\), a pipe unless it holds an \*os.File`
}
