// Package ignore holds exec sites kept broken on purpose, and a directive
// without the reason it needs.
package ignore

import (
	"bytes"
	"context"
	"os/exec"
)

// Broken is a test subject: it must hang.
func Broken(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = new(bytes.Buffer)
	//execcheck:ignore the runner that must hang, for the toolkit's own tests
	return cmd.Run()
}

// SameLine is ignored on the line of the run.
func SameLine(ctx context.Context, argv []string) error {
	return exec.CommandContext(ctx, argv[0], argv[1:]...).Run() //execcheck:ignore the test kills the tree itself
}

// subject is a constructor whose command is broken on purpose: the
// directive at its creation covers every run of it.
func subject(ctx context.Context, argv []string) *exec.Cmd { // want subject:`^execcheck\[result: \[made\(1\) copypipe\]\]$`
	//execcheck:ignore the subject of the hang tests
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = new(bytes.Buffer)
	return cmd
}

func RunSubject(ctx context.Context, argv []string) error {
	return subject(ctx, argv).Run()
}

// NoReason has a directive without a reason: it is itself a finding, and
// it ignores nothing.
func NoReason(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = new(bytes.Buffer)
	//execcheck:ignore // want `^execcheck:ignore needs a reason`
	return cmd.Run() // want `^hang: `
}
