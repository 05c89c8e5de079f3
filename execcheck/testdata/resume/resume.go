//go:build unix

// Package resume resumes a stopped group, as minecraft-server-hibernation
// does: a SIGCONT to the group kills nothing, and the cancel is the
// default Cancel's.
package resume

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
)

func Run(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = new(bytes.Buffer)
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\)`
		return err
	}
	go func() {
		<-ctx.Done()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGSTOP)
	}()
	return cmd.Wait()
}
