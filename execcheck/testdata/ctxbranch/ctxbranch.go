//go:build unix

// Package ctxbranch holds contexts replaced on one branch only: a value
// that may be either is one that can be done.
package ctxbranch

import (
	"context"
	"os/exec"
	"time"
)

// Defaulted: a nil context is replaced by context.Background(), a
// caller's is kept (reduced from a real fix: the site was taken for "no
// cancel: a context that is never done").
func Defaulted(ctx context.Context, argv []string) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	return exec.CommandContext(ctx, argv[0], argv[1:]...).Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait`
}

// DefaultedSwitch: the same on an arm of a switch.
func DefaultedSwitch(ctx context.Context, mode string, argv []string) error {
	switch mode {
	case "detached":
		ctx = context.TODO()
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	return cmd.Run() // want `^orphan: a cancel kills only the direct child`
}

// Timeout: a context that can be done on one branch only.
func Timeout(d time.Duration, argv []string) ([]byte, error) {
	ctx := context.Background()
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return exec.CommandContext(ctx, argv[0], argv[1:]...).Output() // want `^hang: the output is collected by Output\(\)`
}

// Replaced: every path replaces the context: it is never done.
func Replaced(ctx context.Context, argv []string) ([]byte, error) {
	ctx = context.Background()
	return exec.CommandContext(ctx, argv[0], argv[1:]...).Output()
}

// Inner: a context declared and replaced in one arm is that arm's only.
func Inner(argv []string, quiet bool) ([]byte, error) {
	if quiet {
		c := context.TODO()
		c = context.Background()
		return exec.CommandContext(c, argv[0], argv[1:]...).Output()
	}
	return nil, nil
}
