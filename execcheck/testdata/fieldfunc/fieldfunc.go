//go:build unix

// Package fieldfunc kills commands through fields of function type that
// a constructor fills, so that tests can put a fake there, reduced from
// stacklok/go-microvm's runner: the literal is walked where the field is
// called, with the call's pid and signal.
package fieldfunc

import (
	"os/exec"
	"syscall"
)

type deps struct {
	kill func(pid int, sig syscall.Signal) error
}

func newDeps() deps {
	return deps{kill: func(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }}
}

// child signals the runner alone: its session lives on.
type child struct {
	pid  int
	deps deps
}

func startChild(path string) (*child, error) {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(syscall.Kill\(pid, sig\) \(in the function c.deps.kill holds\)\)`
		return nil, err
	}
	go cmd.Wait()
	return &child{pid: cmd.Process.Pid, deps: newDeps()}, nil
}

func (c *child) Stop() error { return c.deps.kill(c.pid, syscall.SIGKILL) } // want Stop:`^execcheck\[kills: child:KILL\]$`

// group signals the runner's session, the fix.
type group struct {
	pid  int
	deps deps
}

func startGroup(path string) (*group, error) {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go cmd.Wait()
	return &group{pid: cmd.Process.Pid, deps: newDeps()}, nil
}

func (g *group) Stop() error { return g.deps.kill(-g.pid, syscall.SIGKILL) } // want Stop:`^execcheck\[kills: group:KILL\]$`

// named holds a declared function.
type named struct {
	pid    int
	signal func(int, syscall.Signal) error
}

func killGroup(pid int, sig syscall.Signal) error { return syscall.Kill(-pid, sig) } // want killGroup:`^execcheck\[pid param 0: group:sig\(param 1\)\]$`

func startNamed(path string) (*named, error) {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go cmd.Wait()
	return &named{pid: cmd.Process.Pid, signal: killGroup}, nil
}

func (n *named) Stop() error { return n.signal(n.pid, syscall.SIGKILL) } // want Stop:`^execcheck\[kills: group:KILL\]$`

// two is given two functions: which one runs is not followed.
type two struct {
	pid    int
	signal func(int, syscall.Signal) error
}

func startTwo(path string, group bool) (*two, error) {
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go cmd.Wait()
	t := &two{pid: cmd.Process.Pid, signal: syscall.Kill}
	if group {
		t.signal = killGroup
	}
	return t, nil
}

func (t *two) Stop() error { return t.signal(t.pid, syscall.SIGKILL) } // want Stop:`^execcheck\[kills: unknown\]$`
