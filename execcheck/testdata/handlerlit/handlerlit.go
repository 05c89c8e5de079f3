//go:build unix

// Package handlerlit holds commands made, run and killed inside a
// function literal that a function returns (an HTTP handler): the
// literal is called elsewhere, but the kills of a command it makes
// itself are that command's, wherever the literal is called.
package handlerlit

import (
	"net/http"
	"os/exec"
	"syscall"
	"time"
)

// Execute's timer kills only the shell, and CombinedOutput waits for
// every holder of the pipe.
func Execute(timeout time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		cmd := exec.Command("sh", "-c", r.FormValue("cmd"))
		timer := time.AfterFunc(timeout, func() {
			if cmd.Process != nil {
				_ = cmd.Process.Kill()
			}
		})
		defer timer.Stop()
		out, _ := cmd.CombinedOutput() // want `^hang: the output is collected by CombinedOutput\(\) and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
		_, _ = w.Write(out)
	}
}

// ExecuteGroup's timer kills the shell's group, also after it exited
// while a descendant holds the pipe: ok.
func ExecuteGroup(timeout time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		cmd := exec.Command("sh", "-c", r.FormValue("cmd"))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		timer := time.AfterFunc(timeout, func() {
			if cmd.Process != nil {
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			}
		})
		defer timer.Stop()
		out, _ := cmd.CombinedOutput()
		_, _ = w.Write(out)
	}
}
