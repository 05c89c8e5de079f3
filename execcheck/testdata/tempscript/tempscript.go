// Package tempscript runs shell scripts built from constants and the
// paths of temporary files, as process-group tests do (rimba, porter).
package tempscript

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func groupKill(cmd *exec.Cmd) { // want groupKill:`^execcheck\[param 0: \[group waitdelay cancel\(group:KILL\)\]\]$`
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
}

// Waiting: the script waits for its background job.
func Waiting(t *testing.T, ctx context.Context) error {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	command := "sleep 30 & echo $! > " + pidFile + "; wait"
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	groupKill(cmd)
	return cmd.Run()
}

// Loop: no background job, built with fmt.Sprintf.
func Loop(t *testing.T, ctx context.Context) error {
	started := filepath.Join(t.TempDir(), "started")
	cmd := exec.CommandContext(ctx, "sh", "-c", fmt.Sprintf("trap '' TERM; touch %s; while true; do sleep 1; done", started))
	groupKill(cmd)
	return cmd.Run()
}

// Background: a temporary path read, and a job left in the background.
func Background(t *testing.T, ctx context.Context) error {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.CommandContext(ctx, "sh", "-c", "sleep 30 & echo $! > "+pidFile)
	groupKill(cmd)
	return cmd.Run() // want `sh -c "sleep 30 & echo \$! > \{pidFile\}" starts a background job`
}

// Given: a path the caller gives may hold anything: not read.
func Given(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "touch "+filepath.Join(dir, "x")+"; wait")
	groupKill(cmd)
	return cmd.Run() // want `sh -c runs a script execcheck cannot read`
}

// Detached: an escaper in a script read around a temporary path.
func Detached(t *testing.T, ctx context.Context) error {
	log := filepath.Join(t.TempDir(), "log")
	cmd := exec.CommandContext(ctx, "sh", "-c", "setsid worker > "+log+" & wait")
	groupKill(cmd)
	return cmd.Run() // want `runs setsid`
}

// Long: rimba's script, five operands of +.
func Long(t *testing.T, ctx context.Context) error {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	pidFile := filepath.Join(dir, "pid")
	command := "sleep 30 & echo $! > " + pidFile + "; touch " + started + "; wait"
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	groupKill(cmd)
	return cmd.Run()
}
