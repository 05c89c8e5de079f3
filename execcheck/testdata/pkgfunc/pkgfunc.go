//go:build unix

// Package pkgfunc holds exec sites in function literals that initialize
// package variables (kept there so that tests can replace them).
package pkgfunc

import (
	"context"
	"os/exec"
	"time"
)

// probeVersion is reduced from a real fix: a plugin probe made and run in
// a function literal kept in a variable, which execcheck did not list at
// all before, not even as unknown.
var probeVersion = func(ctx context.Context, path string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, path, "--version").Output() // want `^hang: the output is collected by Output\(\) and nothing bounds Wait`
}

// bounded is the same with a WaitDelay: the cancel still reaches the
// direct child only.
var bounded = func(ctx context.Context, path string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.WaitDelay = time.Second
	return cmd.Output() // want `^orphan: a cancel kills only the direct child`
}

// runners: literals in a composite value are walked too.
var runners = map[string]func(ctx context.Context) error{
	"lint": func(ctx context.Context) error {
		return exec.CommandContext(ctx, "golangci-lint", "run").Run() // want `^orphan: a cancel kills only the direct child`
	},
}

// noCancel has no context: ok, not reported.
var noCancel = func(path string) error {
	return exec.Command(path).Run()
}

// Use keeps the variables used.
func Use(ctx context.Context) {
	_, _ = probeVersion(ctx, "codex")
	_, _ = bounded(ctx, "codex")
	_ = runners["lint"](ctx)
	_ = noCancel("true")
}
