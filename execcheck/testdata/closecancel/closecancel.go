//go:build unix

// Package closecancel is reduced from a stdio transport: its Close
// cancels the command's context (the default Cancel kills the direct
// child) and then kills the process group by hand, through a pgid a
// helper returns. The group outlives its leader while any member runs,
// so the kill reaches the rest of the group: the site is ok.
package closecancel

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

type transport struct {
	ctx     context.Context
	cancel  context.CancelFunc
	process *exec.Cmd
	stdout  io.ReadCloser
	pgid    int
	done    chan error
}

// pgidOf returns the command's process group.
func pgidOf(cmd *exec.Cmd) int { // want pgidOf:`^execcheck\[result 0: pid of param 0\]$`
	if cmd == nil || cmd.Process == nil {
		return 0
	}
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	if err != nil {
		return 0
	}
	return pgid
}

func killGroup(pgid int, sig syscall.Signal) error { // want killGroup:`^execcheck\[pid param 0: group:sig\(param 1\)\]$`
	return syscall.Kill(-pgid, sig)
}

func killProc(cmd *exec.Cmd, pgid int) error { // want killProc:`^execcheck\[param 0: \[kills\(child:KILL\)\] pid param 1: group:KILL\]$`
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	if pgid > 0 {
		if err := killGroup(pgid, syscall.SIGKILL); err == nil {
			return nil
		}
	}
	return cmd.Process.Kill()
}

func (t *transport) start(command string) error {
	t.ctx, t.cancel = context.WithCancel(context.Background())
	cmd := exec.CommandContext(t.ctx, command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	t.process = cmd
	t.stdout = stdout
	t.done = make(chan error, 1)
	t.pgid = pgidOf(cmd)
	go t.readLoop()
	go t.watch()
	return nil
}

func (t *transport) readLoop() { _, _ = io.Copy(os.Stdout, t.stdout) }

func (t *transport) watch() {
	err := t.process.Wait()
	t.done <- err
}

func (t *transport) close() error { // want close:`^execcheck\[kills: child:KILL, group:KILL, child:KILL, group:KILL\]$`
	t.cancel()
	_ = t.stdout.Close()
	select {
	case <-t.done:
		_ = killProc(t.process, t.pgid)
	case <-time.After(5 * time.Second):
		_ = killProc(t.process, t.pgid)
	}
	return nil
}
