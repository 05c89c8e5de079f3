package downstream

import (
	"bytes"
	"context"
	"os/exec"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// Naive is the bug: a buffer, the default Cancel.
func Naive(ctx context.Context, argv []string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = &out
	return cmd.Run()
}

// WaitDelayOnly returns in time but leaves the descendant.
func WaitDelayOnly(ctx context.Context, argv []string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = &out
	cmd.WaitDelay = 100 * time.Millisecond
	return cmd.Run()
}

// Fixed uses cancelpolicy.
func Fixed(ctx context.Context, argv []string) error {
	var out bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = &out
	return cancelpolicy.Run(ctx, cmd)
}

// Never never runs the command.
func Never(ctx context.Context, argv []string) error {
	<-ctx.Done()
	return ctx.Err()
}
