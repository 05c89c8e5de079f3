//go:build unix

// Package goosarm holds kills chosen by runtime.GOOS, reduced from
// magicdrive/enma's hot-reload runner: on a Unix build the arm for
// windows never runs, so its kill of the direct child is not what a
// cancel does here.
package goosarm

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// Runner is enma's HotloadRunner after its fix.
type Runner struct {
	cmd    *exec.Cmd
	Daemon string
}

// Start starts the daemon; a goroutine reaps it when it exits.
func (r *Runner) Start() error {
	cmd := exec.Command("sh", "-c", r.Daemon)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group`
		return err
	}
	r.cmd = cmd
	go func() { _ = cmd.Wait() }()
	return nil
}

// Stop finds the group by Getpgid, which fails once the goroutine has
// reaped sh.
func (r *Runner) Stop() {
	if r.cmd != nil && r.cmd.Process != nil {
		if runtime.GOOS == "windows" {
			_ = r.cmd.Process.Kill()
		} else {
			pgid, err := syscall.Getpgid(r.cmd.Process.Pid)
			if err == nil {
				_ = syscall.Kill(-pgid, syscall.SIGTERM)
			} else {
				_ = r.cmd.Process.Signal(syscall.SIGTERM)
			}
		}
		_ = r.cmd.Wait()
		r.cmd = nil
	}
}

// Server kills its group by the pid it started, on every Unix.
type Server struct {
	cmd  *exec.Cmd
	Line string
}

// Start starts the server.
func (s *Server) Start() error {
	cmd := exec.Command("sh", "-c", s.Line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil { // ok: the group is killed by hand, also after sh exited
		return err
	}
	s.cmd = cmd
	return nil
}

// stop kills the group on Unix, the direct child on Windows.
func (s *Server) stop() error { // want stop:`^execcheck\[kills: group:KILL\]$`
	switch runtime.GOOS {
	case "windows":
		_ = s.cmd.Process.Kill()
	default:
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
	return s.cmd.Wait()
}

// Tool kills the direct child on Unix, the group elsewhere (never here).
type Tool struct {
	cmd *exec.Cmd
}

// Start starts the tool.
func (t *Tool) Start(line string) error {
	cmd := exec.Command("sh", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(t.cmd.Process.Kill\(\)\)`
		return err
	}
	t.cmd = cmd
	return nil
}

// stop: the arm that kills the group runs only on Windows.
func (t *Tool) stop() error { // want stop:`^execcheck\[kills: child:KILL\]$`
	if runtime.GOOS != "windows" {
		_ = t.cmd.Process.Kill()
	} else {
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	}
	return t.cmd.Wait()
}

// detach: the run on the windows arm never runs on this build, but is
// still a site (nothing is skipped in silence).
func detach(script string) error {
	if runtime.GOOS == "windows" {
		cmd := exec.Command("powershell", "-File", script)
		return cmd.Run()
	}
	return exec.Command("sh", script).Run()
}
