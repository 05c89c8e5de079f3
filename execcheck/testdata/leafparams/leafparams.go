// Package leafparams holds ripgrep run by a helper whose arguments come
// from its callers, reduced from eigen's runRipgrep(ctx, args...) and
// CodeGen-Sandbox's runRipgrep(ctx, args, cwd): the helper's parameter
// is read at each call of the package, a slice a function returns
// (grepModeArgs) at each of its returns.
package leafparams

import (
	"bytes"
	"context"
	"os/exec"
)

func runRg(ctx context.Context, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "rg", args...).CombinedOutput()
	return string(out), err
}

func modeArgs(mode string) ([]string, error) {
	switch mode {
	case "count":
		return []string{"-c"}, nil
	case "files":
		return []string{"-l"}, nil
	}
	return nil, nil
}

// Grep passes constant flags, a mode's and the pattern after --.
func Grep(ctx context.Context, mode, pattern, dir string) (string, error) {
	args := []string{"--line-number", "--no-heading"}
	m, err := modeArgs(mode)
	if err != nil {
		return "", err
	}
	args = append(args, m...)
	args = append(args, "--", pattern, dir)
	return runRg(ctx, args...)
}

// Files passes its flags directly.
func Files(ctx context.Context, glob string) (string, error) {
	return runRg(ctx, "--files", "-g", glob)
}

func runSlice(ctx context.Context, args []string) ([]byte, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "rg", args...)
	cmd.Stdout = &out
	err := cmd.Run()
	return out.Bytes(), err
}

// Search hands runSlice a local slice and a literal: both read.
func Search(ctx context.Context, pattern string) ([]byte, error) {
	args := []string{"--json", "-e", pattern}
	if _, err := runSlice(ctx, []string{"--files"}); err != nil {
		return nil, err
	}
	return runSlice(ctx, args)
}

func runPre(ctx context.Context, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, "rg", args...).Output() // want `^hang: the output is collected by Output\(\)`
}

// Decompress asks for a preprocessor at one call: the helper may start
// one.
func Decompress(ctx context.Context, pattern string) ([]byte, error) {
	if _, err := runPre(ctx, "--files"); err != nil {
		return nil, err
	}
	return runPre(ctx, "--pre", "zcat", "-e", pattern)
}

// RunExported is called where execcheck does not see: its arguments may
// be any.
func RunExported(ctx context.Context, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, "rg", args...).Output() // want `^hang: the output is collected by Output\(\)`
}
