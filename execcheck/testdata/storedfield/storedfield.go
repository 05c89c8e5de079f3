// Package storedfield keeps its command and its output pipe in a struct
// a constructor of the package fills, as dify-plugin-daemon's
// newPluginInstance does; Stop kills through the field.
package storedfield

import (
	"bufio"
	"io"
	"os/exec"
)

type Instance struct {
	cmd       *exec.Cmd
	outReader io.ReadCloser
	lines     chan string
}

func newInstance(e *exec.Cmd, reader io.ReadCloser) *Instance { // want newInstance:`^execcheck\[param 0: \[readpipe kills\(child:KILL\) runs:Start procwait\]\]$`
	return &Instance{cmd: e, outReader: reader, lines: make(chan string)}
}

// Launch starts the plugin: Stop kills python alone, its descendants
// keep running.
func Launch(path string) (*Instance, error) {
	e := exec.Command(path, "-m", "main")
	stdout, err := e.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := e.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(s.cmd.Process.Kill\(\)\)`
		return nil, err
	}
	in := newInstance(e, stdout)
	go in.read()
	return in, nil
}

func (s *Instance) read() {
	sc := bufio.NewScanner(s.outReader)
	for sc.Scan() {
		s.lines <- sc.Text()
	}
}

// Stop closes the pipe by hand, kills the process and reaps it.
func (s *Instance) Stop() {
	s.outReader.Close()
	s.cmd.Process.Kill()
	s.cmd.Process.Wait()
}
