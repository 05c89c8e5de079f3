// Package mapkept is reduced from mirocraft's process runner: a process
// kept in a map of the runner, its output scanned to EOF before Wait,
// killed by a method that looks it up again and kills it only while it
// has not been reaped: that kill of the direct child is the cancel.
package mapkept

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"sync"
)

type process struct {
	cmd    *exec.Cmd
	exited chan struct{}
	wg     sync.WaitGroup
}

type Runner struct {
	mu    sync.Mutex
	procs map[string]*process
}

func (r *Runner) Start(id, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	p := &process{cmd: cmd, exited: make(chan struct{})}
	r.mu.Lock()
	r.procs[id] = p
	r.mu.Unlock()
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF .* a cancel kills only the direct child \(p\.cmd\.Process\.Kill\(\)\)`
		close(p.exited)
		return err
	}
	p.wg.Add(1)
	go p.capture(stdout)
	go r.reap(p)
	return nil
}

func (p *process) capture(rc io.ReadCloser) {
	defer p.wg.Done()
	s := bufio.NewScanner(rc)
	for s.Scan() {
	}
}

func (r *Runner) reap(p *process) {
	p.wg.Wait()
	_ = p.cmd.Wait()
	close(p.exited)
}

func (r *Runner) lookup(id string) (*process, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.procs[id]
	if !ok {
		return nil, errors.New("not found")
	}
	return p, nil
}

func (r *Runner) Kill(id string) error {
	p, err := r.lookup(id)
	if err != nil {
		return err
	}
	select {
	case <-p.exited:
		return errors.New("not running")
	default:
	}
	if p.cmd.Process == nil {
		return errors.New("not running")
	}
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	<-p.exited
	return nil
}
