//go:build windows

package jobs

import (
	"bytes"
	"context"
	"os/exec"

	"github.com/exectest/exectest/cancelpolicy"
)

// RunTagged is Run in a file whose constraint, not its name, says
// Windows.
func RunTagged(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(exec.CommandContext's default Cancel \(Process.Kill\)\): Wait lasts as long as any descendant holding the pipe; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
	return out.String(), err
}

// NohupTagged is Nohup: nothing leaves a job object.
func NohupTagged(ctx context.Context) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", "nohup worker")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run() // want `^hang: stdout is a \*bytes.Buffer .*; fix: run it with cancelpolicy.Run\(ctx, cmd\): cancelpolicy starts the command suspended in a job object of its own, and a cancel terminates the job, descendants included \(Windows\)$`
	return out.Bytes(), err
}

// PolicyTagged is the fix.
func PolicyTagged(ctx context.Context, argv []string) error {
	return cancelpolicy.Run(ctx, exec.CommandContext(ctx, argv[0], argv[1:]...))
}
