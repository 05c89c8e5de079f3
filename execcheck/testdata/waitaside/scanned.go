//go:build unix

package waitaside

import (
	"bufio"
	"context"
	"os/exec"
	"testing"
)

// ScanBeside makes the scanner where the pipe is and scans it in a
// goroutine beside Wait, which closes the pipe once the child exits.
func ScanBeside(ctx context.Context, prog string, line func(string)) error {
	cmd := exec.CommandContext(ctx, prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Wait \(scanned.go:\d+\) comes while the reads of the pipe run in goroutines`
		return err
	}
	scanner := bufio.NewScanner(stdout)
	go func() {
		for scanner.Scan() {
			line(scanner.Text())
		}
	}()
	return cmd.Wait()
}

// ShareHook is ddev's share test: the Wait is in a t.Cleanup, the
// reads in a goroutine nothing joins.
func ShareHook(t *testing.T, bin string, seen func(string)) {
	cmd := exec.Command(bin, "share")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Wait \(scanned.go:\d+\) runs when the function ends, beside the reads in a goroutine`
		t.Fatal(err)
	}
	scanner := bufio.NewScanner(stderr)
	go func() {
		for scanner.Scan() {
			seen(scanner.Text())
		}
	}()
}

// ShareJoined: the test waits for the reads before its cleanup's Wait.
func ShareJoined(t *testing.T, bin string, seen func(string)) {
	cmd := exec.Command(bin, "share")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	if err := cmd.Start(); err != nil { // want `^hang: stderr is read from StderrPipe\(\) until EOF \(bufio.NewScanner\)`
		t.Fatal(err)
	}
	done := make(chan struct{})
	scanner := bufio.NewScanner(stderr)
	go func() {
		defer close(done)
		for scanner.Scan() {
			seen(scanner.Text())
		}
	}()
	<-done
}

type victim struct {
	cmd *exec.Cmd
	out *bufio.Scanner
}

// run keeps the scanner in a field, as exectest's own victim test does:
// read where it is made, since its Scan may be anywhere.
func (v *victim) run(ctx context.Context, prog string) error {
	v.cmd = exec.CommandContext(ctx, prog)
	stdout, err := v.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	v.out = bufio.NewScanner(stdout)
	if err := v.cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\)`
		return err
	}
	for v.out.Scan() {
		_ = v.out.Text()
	}
	return v.cmd.Wait()
}
