package prochanded

import (
	"os"
	"os/exec"
)

// Server hands its process out as Cmd does, and its own Stop kills the
// direct child alone, reduced from k0s's supervisor: that stop falls
// short whatever other packages send (a SIGHUP to reload, there).
type Server struct {
	cmd *exec.Cmd
}

// Start starts it.
func (s *Server) Start(name string) error {
	s.cmd = exec.Command(name)
	return s.cmd.Start() // want `^orphan: a cancel kills only the direct child \(s.cmd.Process.Kill\(\)\); Wait returns in bounded time \(no output pipe\), but the descendants keep running; its process is also kept in the result of \(\*Server\).GetProcess \(server.go:\d+\), which other packages get, where execcheck does not follow what else kills it`
}

// Stop kills it.
func (s *Server) Stop() error { return s.cmd.Process.Kill() } // want Stop:`^execcheck\[kills: child:KILL\]$`

// GetProcess is what callers signal.
func (s *Server) GetProcess() *os.Process { return s.cmd.Process }
