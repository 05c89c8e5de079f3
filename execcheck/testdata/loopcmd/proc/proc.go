// Package proc is sst's pkg/process, reduced: a constructor and a kill
// of the direct child that other packages call.
package proc

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

func Command(name string, args ...string) *exec.Cmd { // want Command:`^execcheck\[result: \[made\(1\)\]\]$`
	return exec.Command(name, args...)
}

func Kill(p *os.Process) error { // want Kill:`^execcheck\[pid param 0: child:other, child:KILL\]$`
	if err := p.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	time.Sleep(time.Second)
	return p.Signal(syscall.SIGKILL)
}
