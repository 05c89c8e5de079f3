package leafflags

import (
	"context"
	"os/exec"
)

// Toplevel is stepflow's repoToplevel: git rev-parse starts no process.
func Toplevel(ctx context.Context, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "--show-toplevel").Output()
}

// Origin: git remote get-url reads the config and prints.
func Origin(ctx context.Context) ([]byte, error) {
	args := []string{"remote", "get-url", "origin"}
	return exec.CommandContext(ctx, "git", args...).Output()
}

// Fetch: git fetch starts ssh or a remote helper.
func Fetch(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "fetch", "origin").Output() // want `^hang: the output is collected by Output\(\)`
}

// Update: git remote update fetches.
func Update(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "remote", "update").Output() // want `^hang: the output is collected by Output\(\)`
}

// Sub: a subcommand execcheck cannot read may be any.
func Sub(ctx context.Context, sub string) ([]byte, error) {
	return exec.CommandContext(ctx, "git", sub, "HEAD").Output() // want `^hang: the output is collected by Output\(\)`
}

// Branches and Untracked read refs and the index (round 25: trau's
// worktree queries).
func Branches(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "for-each-ref", "--format=%(refname:short)", "refs/heads").Output()
}

func Untracked(ctx context.Context, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "-C", dir, "ls-files", "--others", "--exclude-standard").Output()
}

// Status may recurse into submodules: not a leaf.
func Status(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "status", "--porcelain").Output() // want `^hang: the output is collected by Output\(\)`
}

// Version is multigres's exact-tag check: git describe reads refs and
// commits.
func Version(ctx context.Context, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "-C", dir, "describe", "--tags", "--exact-match").Output()
}

// Dirty refreshes the index first, which may run an fsmonitor hook.
func Dirty(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "git", "describe", "--always", "--dirty=-modified").Output() // want `^hang: the output is collected by Output\(\)`
}
