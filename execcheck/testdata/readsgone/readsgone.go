// Package readsgone holds pipes read by a method started with go and
// given the address of a local WaitGroup, reduced from emu's runner:
// each chunk goes to a channel from inside the read loop, and the
// group's Wait stands in a goroutine nothing awaits, so no call blocks
// on the reads, and Wait is never called.
package readsgone

import (
	"io"
	"os"
	"os/exec"
	"sync"
)

type runner struct {
	cmd   *exec.Cmd
	lines chan string
	done  func()
}

func (r *runner) read(pipe io.Reader, wg *sync.WaitGroup) {
	buf := make([]byte, 1024)
	for {
		n, err := pipe.Read(buf)
		if err != nil {
			wg.Done()
			return
		}
		r.lines <- string(buf[:n])
	}
}

// Start reads both pipes in goroutines; a goroutine waits for them and
// notes the end. Stop interrupts the direct child: an orphan.
func (r *runner) Start() error {
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		return err
	}
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	wg := sync.WaitGroup{}
	wg.Add(2)
	go r.read(stderr, &wg)
	go r.read(stdout, &wg)
	go func() {
		wg.Wait()
		r.done()
	}()
	return r.cmd.Start() // want `^orphan: .*no call blocks on the reads`
}

func (r *runner) Stop() error { return r.cmd.Process.Signal(os.Interrupt) } // want Stop:`^execcheck\[kills: child:INT\]$`

// Lines receives the chunks without a bound: they are the output, not
// the end of the reads.
func (r *runner) Lines() []string {
	var out []string
	for l := range r.lines {
		out = append(out, l)
	}
	return out
}

// waiter reads the same way, but its caller waits for the group: a
// hang.
type waiter struct{ cmd *exec.Cmd }

func (w *waiter) read(pipe io.Reader, wg *sync.WaitGroup) {
	defer wg.Done()
	_, _ = io.Copy(io.Discard, pipe)
}

func (w *waiter) Run() error {
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go w.read(stdout, &wg)
	if err := w.cmd.Start(); err != nil { // want `^hang: `
		return err
	}
	wg.Wait()
	return w.cmd.Wait()
}

func (w *waiter) Stop() error { return w.cmd.Process.Kill() } // want Stop:`^execcheck\[kills: child:KILL\]$`

// ender sends once the read ended, and Result waits for it: a hang.
type ender struct {
	cmd  *exec.Cmd
	end  chan error
	stop func()
}

func (e *ender) read(pipe io.Reader, wg *sync.WaitGroup) {
	defer wg.Done()
	buf := make([]byte, 1024)
	for {
		if _, err := pipe.Read(buf); err != nil {
			e.end <- err
			return
		}
	}
}

func (e *ender) Start() error {
	stdout, err := e.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go e.read(stdout, &wg)
	go func() {
		wg.Wait()
		e.stop()
	}()
	return e.cmd.Start() // want `^hang: `
}

func (e *ender) Result() error { return <-e.end }

func (e *ender) Stop() error { return e.cmd.Process.Kill() } // want Stop:`^execcheck\[kills: child:KILL\]$`

func newRunner(script string) *runner {
	return &runner{cmd: exec.Command("sh", "-c", script), lines: make(chan string), done: func() {}}
}

func newWaiter(script string) *waiter { return &waiter{cmd: exec.Command("sh", "-c", script)} }

func newEnder(script string) *ender {
	return &ender{cmd: exec.Command("sh", "-c", script), end: make(chan error, 1), stop: func() {}}
}

var (
	_ = newRunner
	_ = newWaiter
	_ = newEnder
)
