//go:build unix

// Package prockept holds kills by hand through an *os.Process kept in a
// package variable or a field, made in another function than the run.
package prockept

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
)

// current is reduced from real code: the running process, killed by Stop.
var current *os.Process

// Start keeps the process for Stop, which kills it alone while the
// buffer's copy waits for a descendant holding the pipe. It was "ok: no
// cancel".
func Start(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(current.Kill\(\)\)`
		return err
	}
	current = cmd.Process
	return cmd.Wait()
}

// Stop kills the process kept.
func Stop() {
	if current != nil {
		_ = current.Kill()
	}
}

// job keeps the process in a field.
type job struct{ proc *os.Process }

func (j *job) start(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(j.proc.Signal\(syscall.SIGTERM\)\)`
		return err
	}
	j.proc = cmd.Process
	return nil
}

// Stop signals the process alone.
func (j *job) Stop() error { return j.proc.Signal(syscall.SIGTERM) } // want Stop:`^execcheck\[kills: child:other\]$`

// procs keeps processes by name: one process for the package, as a
// field is, so Untrack's kill is a kill of Track's command.
var procs = map[string]*os.Process{}

// Track keeps its process in a map, killed by Untrack alone.
func Track(id string, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(p.Kill\(\)\)`
		return err
	}
	procs[id] = cmd.Process
	return nil
}

// Untrack kills a process of the map.
func Untrack(id string) {
	if p := procs[id]; p != nil {
		_ = p.Kill()
	}
}

// viewers is reduced from gopls' trace viewers: every viewer started is
// appended, and a function for tests kills them all, each alone. It was
// "ok: no cancel".
var viewers []*os.Process

// View starts a viewer whose output goes to a pipe of its own (an
// *os.File) and is never waited for.
func View(file string, w *os.File) error {
	cmd := exec.Command("go", "tool", "trace", file)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(p.Kill\(\)\)`
		return err
	}
	viewers = append(viewers, cmd.Process)
	return nil
}

// KillViewers kills every viewer's direct child.
func KillViewers() {
	for _, p := range viewers {
		p.Kill()
	}
	viewers = nil
}

// handoff sends the process where execcheck does not follow a kill.
var handoff = make(chan *os.Process, 1)

// Hand's site is unknown: its process is sent on a channel.
func Hand(argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return err
	}
	handoff <- cmd.Process
	return nil
}
