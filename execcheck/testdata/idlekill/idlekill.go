// Package idlekill kills its command when its output goes quiet for too
// long, as dex's runner does.
package idlekill

import (
	"bufio"
	"io"
	"os/exec"
	"sync"
	"time"
)

func Run(name string, args []string, timeout time.Duration) error {
	cmd := exec.Command(name, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(the pipe is read only in goroutines every wait for which has a timeout or a default \(idlekill.go:38\), and cmd.Wait, with nothing to copy, closes it once the direct child exits`
		return err
	}
	lines := make(chan string)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			lines <- s.Text()
		}
	}()
	go func() { wg.Wait(); close(lines) }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case _, ok := <-lines:
			if !ok {
				return cmd.Wait()
			}
			timer.Reset(timeout)
		case <-timer.C:
			cmd.Process.Kill()
			cmd.Wait()
			return nil
		}
	}
}

// Joined waits for the readers' group before Wait, with no bound: the
// reads hold it while a descendant holds the pipe.
func Joined(name string, timeout time.Duration) error {
	cmd := exec.Command(name)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := bufio.NewScanner(stdout)
		for s.Scan() {
		}
	}()
	t := time.AfterFunc(timeout, func() { cmd.Process.Kill() })
	defer t.Stop()
	wg.Wait()
	return cmd.Wait()
}

// Scanned reads through a function value started with go, the scanner
// made in the go statement's arguments, as dex's runner does.
func Scanned(name string, timeout time.Duration) error {
	cmd := exec.Command(name)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\); Wait returns in bounded time \(the pipe is read only in goroutines`
		return err
	}
	lines := make(chan string)
	var wg sync.WaitGroup
	scan := func(s *bufio.Scanner) {
		defer wg.Done()
		for s.Scan() {
			lines <- s.Text()
		}
	}
	wg.Add(2)
	go scan(bufio.NewScanner(stdout))
	go scan(bufio.NewScanner(stderr))
	go func() { wg.Wait(); close(lines) }()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case _, ok := <-lines:
			if !ok {
				return cmd.Wait()
			}
			timer.Reset(timeout)
		case <-timer.C:
			cmd.Process.Kill()
			cmd.Wait()
			return nil
		}
	}
}

// Streamed reads through a declared function given the group by
// address, as che's streamPipe(&wg, ...): the group's Wait may be
// anywhere, and here it precedes cmd.Wait with no bound.
func Streamed(name string) error {
	cmd := exec.Command(name)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	t := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer t.Stop()
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF`
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go stream(&wg, stdout)
	wg.Wait()
	return cmd.Wait()
}

func stream(wg *sync.WaitGroup, r io.Reader) {
	defer wg.Done()
	s := bufio.NewScanner(r)
	for s.Scan() {
	}
}
