// Package readinline is reduced from Vrooli's agent runner: stderr is
// scanned in a goroutine, stdout here, to EOF, before Wait. The read
// here is what the run blocks on, and a watch placed after it comes too
// late to end it.
package readinline

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"syscall"
)

func Run(ctx context.Context, bin string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, "-p")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\)`
		return "", err
	}
	var errOut strings.Builder
	go func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			errOut.WriteString(s.Text())
		}
	}()
	var out strings.Builder
	s := bufio.NewScanner(stdout)
	for s.Scan() {
		out.WriteString(s.Text())
	}
	err = cmd.Wait()
	return out.String(), err
}

// Watched kills the group on the cancel, but only once stdout reached
// EOF: while a descendant holds it, the select is never reached.
func Watched(ctx context.Context, bin string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, "-p")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF .*; the group kill by hand \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) comes only after the output was read to EOF, which a descendant holding the pipe keeps from ending`
		return "", err
	}
	var out strings.Builder
	s := bufio.NewScanner(stdout)
	for s.Scan() {
		out.WriteString(s.Text())
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	return out.String(), err
}

// KillAfterScan is reduced from dify's plugin instance: once the scan
// ends (a Stop elsewhere may close the pipe) the direct child is killed.
// That kill is still the cancel, of the direct child only.
func KillAfterScan(bin string) error {
	cmd := exec.Command(bin)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF .* a cancel kills only the direct child \(cmd\.Process\.Kill\(\)\)`
		return err
	}
	s := bufio.NewScanner(stdout)
	for s.Scan() {
	}
	_ = cmd.Process.Kill()
	_, err = cmd.Process.Wait()
	return err
}

// FirstLine is reduced from mxcli's process-group test: one Scan reads
// a line, not the pipe to EOF, so the group kill after it comes while
// the pipe is held, and covers.
func FirstLine() error { // want FirstLine:`^execcheck\[kills: group:KILL\]$`
	cmd := exec.Command("sh", "-c", "sleep 60 & echo $!; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		return sc.Err()
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Wait()
}

// Handed gives the pipe to a function it is handed, which may read it
// in a goroutine and return at once (magic-cli-remote's acp
// connection): the group kill after the call is not taken to come
// only once the pipe reached EOF.
func Handed(ctx context.Context, bin string, serve func(io.Reader)) error {
	cmd := exec.Command(bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	serve(stdout)
	<-ctx.Done()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.Wait()
}
