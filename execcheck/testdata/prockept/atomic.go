package prockept

import (
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// Server keeps its CLI's process in an atomic pointer, as copilot-sdk's
// client does; Stop kills it through the pointer.
type Server struct {
	osProcess atomic.Pointer[os.Process]
	done      chan struct{}
	stdout    io.ReadCloser
}

func (s *Server) Start(path string) error {
	cmd := exec.Command(path, "--stdio")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	s.stdout = out
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(p\.Kill\(\)\)`
		return err
	}
	s.osProcess.Store(cmd.Process)
	s.done = make(chan struct{})
	go func() {
		cmd.Wait()
		close(s.done)
	}()
	return nil
}

func (s *Server) Stop() {
	if p := s.osProcess.Swap(nil); p != nil {
		p.Kill()
	}
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
}

// Grouped kills the group of the process it keeps, as the fix does.
type Grouped struct {
	osProcess atomic.Pointer[os.Process]
	done      chan struct{}
}

func (g *Grouped) Start(path string) error {
	cmd := exec.Command(path, "--stdio")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return err
	}
	g.osProcess.Store(cmd.Process)
	g.done = make(chan struct{})
	go func() {
		cmd.Wait()
		close(g.done)
	}()
	return nil
}

func (g *Grouped) Stop() {
	if p := g.osProcess.Load(); p != nil {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
	select {
	case <-g.done:
	case <-time.After(5 * time.Second):
	}
}
