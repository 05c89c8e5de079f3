//go:build unix

// Package runaside runs commands with Run or Output in a goroutine,
// reduced from vogo/logtail: a server's command run in a loop in a
// goroutine that Start starts and returns from, killed by Stop. No call
// waits for that goroutine, so a descendant holding the pipe blocks
// nothing and a kill of the shell alone leaves an orphan, not a hang;
// where a channel or a sync.WaitGroup lets a call wait for it with no
// timeout, a hang.
package runaside

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sync"
)

// Server keeps running its command until Stop.
type Server struct {
	command string
	cmd     *exec.Cmd
	out     bytes.Buffer
	stop    chan struct{}
}

// Start runs the command in a goroutine no call waits for.
func (s *Server) Start() {
	go func() {
		for {
			select {
			case <-s.stop:
				return
			default:
				s.cmd = exec.Command("/bin/sh", "-c", s.command)
				s.cmd.Stdout = &s.out
				if err := s.cmd.Run(); err != nil { // want `^orphan: a cancel kills only the direct child \(s.cmd.Process.Kill\(\)\); Wait returns in bounded time \(cmd.Run runs only in a goroutine, and nothing waits for it: no call blocks on os/exec's copy of the output\)`
					return
				}
			}
		}
	}()
}

// Stop kills the shell alone.
func (s *Server) Stop() {
	close(s.stop)
	_ = s.cmd.Process.Kill()
}

// Job sends what Output collected on a channel its caller receives from
// with no timeout.
type Job struct {
	cmd *exec.Cmd
}

// Result waits for the goroutine's send.
func (j *Job) Result(line string) []byte {
	j.cmd = exec.Command("/bin/sh", "-c", line)
	res := make(chan []byte)
	go func() {
		out, _ := j.cmd.Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(j.cmd.Process.Kill\(\)\).*cmd.Output runs only in a goroutine, and its signal \(res\) is received with no timeout`
		res <- out
	}()
	return <-res
}

// Kill kills the shell alone.
func (j *Job) Kill() { _ = j.cmd.Process.Kill() }

// Pool waits for its goroutines with a sync.WaitGroup.
type Pool struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// Run runs the command in a goroutine the group's Wait waits for.
func (p *Pool) Run(line string) {
	var wg sync.WaitGroup
	p.cmd = exec.Command("/bin/sh", "-c", line)
	p.cmd.Stdout = &p.out
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = p.cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(p.cmd.Process.Kill\(\)\).*cmd.Run runs only in a goroutine, and wg.Done at runaside.go:\d+ lets a sync.WaitGroup's Wait wait for it, with no timeout`
	}()
	wg.Wait()
}

// Kill kills the shell alone.
func (p *Pool) Kill() { _ = p.cmd.Process.Kill() }

// Batch waits for its command in a goroutine, with a sync.WaitGroup.
type Batch struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// Kill kills the shell alone.
func (p *Batch) Kill() { _ = p.cmd.Process.Kill() }

// Started waits in a goroutine the group's Wait waits for: cmd.Wait's
// rule is the same.
func (p *Batch) Started(line string) error {
	var wg sync.WaitGroup
	p.cmd = exec.Command("/bin/sh", "-c", line)
	p.cmd.Stdout = &p.out
	if err := p.cmd.Start(); err != nil { // want `^hang: .*cmd.Wait runs only in a goroutine, and wg.Done at runaside.go:\d+ lets a sync.WaitGroup's Wait wait for it, with no timeout`
		return err
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = p.cmd.Wait()
	}()
	wg.Wait()
	return nil
}

// printed is reduced from cirello-io/runner: the pipes are read in
// goroutines that Run does not wait for; Run's Wait closes them once the
// shell exits, which ends the reads.
func printed(ctx context.Context, line string, w io.Writer) error {
	c := exec.CommandContext(ctx, "sh", "-c", line)
	stderr, err := c.StderrPipe()
	if err != nil {
		return err
	}
	go copyLines(w, stderr)
	return c.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Run \(runaside.go:\d+\) comes while the reads of the pipe run in goroutines: it closes the pipe once the direct child exits\)`
}

func copyLines(w io.Writer, r io.Reader) {
	s := bufio.NewScanner(r)
	for s.Scan() {
		fmt.Fprintln(w, s.Text())
	}
}

// Runner prints its commands' output.
type Runner struct {
	logs chan string
}

// prefixed reads in a goroutine it starts, and returns at once.
func (r *Runner) prefixed(ctx context.Context, rdr io.Reader) *bufio.Scanner {
	scanner := bufio.NewScanner(rdr)
	scanner.Buffer(make([]byte, 65536), 1<<20)
	go func() {
		for scanner.Scan() {
			r.logs <- scanner.Text()
		}
	}()
	return scanner
}

// Printed is reduced from cirello-io/runner: a helper reads the pipes in
// goroutines of its own.
func (r *Runner) Printed(ctx context.Context, line string, buf *bytes.Buffer) error {
	c := exec.CommandContext(ctx, "sh", "-c", line)
	stderr, err := c.StderrPipe()
	if err != nil {
		return err
	}
	r.prefixed(ctx, io.TeeReader(stderr, buf))
	return c.Run() // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\); Wait returns in bounded time \(cmd.Run \(runaside.go:\d+\) comes while the reads of the pipe run in goroutines`
}
