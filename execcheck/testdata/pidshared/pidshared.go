//go:build unix

// Package pidshared holds two commands whose pids are kept in one field
// (a table of running jobs): a kill through the field reaches either,
// but what is done to one command by its own variable is not done to the
// other.
package pidshared

import (
	"context"
	"os"
	"os/exec"
	"syscall"
)

// job is what the table keeps of a running command.
type job struct{ pid int }

type table struct{ jobs map[string]*job }

// Foreground is reduced from real code: a shell in a group of its own,
// exec.CommandContext's default Cancel, output to a log file. Its pid is
// kept in the table; nothing kills its group on cancel.
func (t *table) Foreground(ctx context.Context, id, dir, script string) error {
	out, err := os.Create(dir + "/out")
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
		return err
	}
	t.jobs[id] = &job{pid: cmd.Process.Pid}
	return cmd.Wait()
}

// Background keeps its pid in the same table, and kills its own group
// when the context is done: the kill is of this command only.
func (t *table) Background(ctx context.Context, id, script string) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	j := &job{}
	j.pid = cmd.Process.Pid
	t.jobs[id] = j
	go func() {
		<-ctx.Done()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}()
	go func() { _ = cmd.Wait() }()
	return nil
}

// worker keeps the pid of whichever of its commands runs; Stop signals
// it through the field. Each command gets that kill: it reaches the
// direct child only.
type worker struct{ pid int }

func (w *worker) Build(dir string) error {
	cmd := exec.Command("make", "-C", dir)
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(syscall.Kill\(w.pid, syscall.SIGTERM\)\)`
		return err
	}
	w.pid = cmd.Process.Pid
	return cmd.Wait()
}

func (w *worker) Test(dir string) error {
	cmd := exec.Command("make", "-C", dir, "test")
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(syscall.Kill\(w.pid, syscall.SIGTERM\)\)`
		return err
	}
	w.pid = cmd.Process.Pid
	return cmd.Wait()
}

func (w *worker) Stop() error { return syscall.Kill(w.pid, syscall.SIGTERM) } // want Stop:`^execcheck\[kills: child:other\]$`
