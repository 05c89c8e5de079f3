// Package peros hardens its commands in a _unix.go file with no-op
// twins for Windows and the other systems. execcheck analyzes one build
// at a time. On Linux the group kill makes Build and Serve ok, and Launch
// a launcher (Cancel kills the group only while npx runs). On Windows
// the default Cancel terminates the direct child alone, where
// cancelpolicy.Run would terminate the job object the whole tree runs in:
// Build hangs, Serve and Launch orphan. On Plan 9, with neither groups
// nor job objects, only Build, whose Wait nothing bounds, is a finding.
package peros

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"time"
)

// Build collects the output: on Windows nothing bounds its Wait.
func Build(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", "build", "./...")
	harden(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// Serve bounds its Wait itself: on Windows the descendants still outlive
// the cancel.
func Serve(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "go", "run", "./server")
	harden(cmd)
	cmd.Stdout = os.Stdout
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Launch runs a shim, which exits at once and leaves its work running.
func Launch(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "npx", "vite")
	harden(cmd)
	cmd.Stdout = os.Stdout
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^launcher: Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\), but os/exec calls Cancel only while the direct child runs, and npx is a launcher shim`
}
