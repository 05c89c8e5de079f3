// Package leafflags holds runs of ripgrep and fd, which start a process
// only when a flag asks (rg --pre or -z, fd -x, -X or -l): reduced from
// coding agents' search tools. Without those flags a cancel's kill of
// the direct child ends every holder of the output pipe.
package leafflags

import (
	"context"
	"fmt"
	"os/exec"
)

// Ripgrep: every term the caller gives follows -e, so none is a flag.
func Ripgrep(ctx context.Context, dir string, terms []string) ([]byte, error) {
	args := []string{"-C", "10", "-i", "--line-number", "--with-filename"}
	for _, term := range terms {
		args = append(args, "-e", term)
	}
	cmd := exec.CommandContext(ctx, "rg", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// Files: the pattern and the directory follow "--".
func Files(ctx context.Context, pattern, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "fd", "--type", "f", "--", pattern, dir).Output()
}

// Pre runs a preprocessor for every file: a hang.
func Pre(ctx context.Context, term string) ([]byte, error) {
	return exec.CommandContext(ctx, "rg", "--pre", "pdftotext", "-e", term).Output() // want `^hang: the output is collected by Output\(\)`
}

// Zip runs decompressors, asked for in a bundle of short flags.
func Zip(ctx context.Context, term string) ([]byte, error) {
	return exec.CommandContext(ctx, "rg", "-iz", "-e", term).Output() // want `^hang: the output is collected by Output\(\)`
}

// Pattern: a pattern given as the first positional argument is data,
// as real search tools pass it.
func Pattern(ctx context.Context, pattern string) ([]byte, error) {
	return exec.CommandContext(ctx, "rg", "--json", pattern, ".").Output()
}

// grepInput is reduced from claudio's grep tool: flags built with
// fmt.Sprintf from a constant format, then the pattern and the path.
type grepInput struct {
	Pattern, Path string
	Context       int
}

func Grep(ctx context.Context, in grepInput) ([]byte, error) {
	args := []string{"--no-heading", "--line-number"}
	if in.Context > 0 {
		args = append(args, fmt.Sprintf("-C%d", in.Context))
	}
	args = append(args, in.Pattern)
	if in.Path != "" {
		args = append(args, in.Path)
	}
	cmd := exec.CommandContext(ctx, "rg", args...)
	return cmd.Output()
}

// PreFormat asks for a preprocessor through a format: a hang, as a
// constant --pre is.
func PreFormat(ctx context.Context, pre, term string) ([]byte, error) {
	return exec.CommandContext(ctx, "rg", fmt.Sprintf("--pre=%s", pre), "-e", term).Output() // want `^hang: the output is collected by Output\(\)`
}

// Exec: fd runs a command per result.
func Exec(ctx context.Context, dir string) ([]byte, error) {
	args := []string{"-e", "go", "-x", "gofmt", "-l"}
	return exec.CommandContext(ctx, "fd", append(args, "--", dir)...).Output() // want `^hang: the output is collected by Output\(\)`
}

// Passed: the arguments are built elsewhere too.
func Passed(ctx context.Context, extra func([]string) []string) ([]byte, error) {
	args := []string{"-e", "x"}
	args = extra(args)
	return exec.CommandContext(ctx, "rg", args...).Output() // want `^hang: the output is collected by Output\(\)`
}
