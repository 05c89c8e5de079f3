package prockept

import (
	"os"
	"os/exec"
	"syscall"
)

// sentJob sends its process on a channel, as mittnite's supervisor does:
// startOnce sends it, Start keeps what it receives in a field, and Stop
// kills through that field.
type sentJob struct {
	process *os.Process
	errc    chan error
}

func (j *sentJob) startOnce(argv []string, process chan<- *os.Process) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(j\.process\.Kill\(\)\)`
		j.errc <- err
		return
	}
	process <- cmd.Process
	j.errc <- cmd.Wait()
}

func (j *sentJob) Start(argv []string) {
	p := make(chan *os.Process)
	j.errc = make(chan error, 1)
	go j.startOnce(argv, p)
	j.process = <-p
}

func (j *sentJob) Stop() {
	if j.process != nil {
		j.process.Kill()
	}
}

// sentGroupJob is the fix: its own group, killed through the process it
// received.
type sentGroupJob struct {
	process *os.Process
	errc    chan error
}

func (j *sentGroupJob) startOnce(argv []string, process chan<- *os.Process) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = os.Stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		j.errc <- err
		return
	}
	process <- cmd.Process
	j.errc <- cmd.Wait()
}

func (j *sentGroupJob) Start(argv []string) {
	p := make(chan *os.Process)
	j.errc = make(chan error, 1)
	go j.startOnce(argv, p)
	for proc := range p {
		j.process = proc
		return
	}
}

func (j *sentGroupJob) Stop() {
	if j.process != nil {
		syscall.Kill(-j.process.Pid, syscall.SIGKILL)
	}
}
