//go:build unix

// Package progparam holds constructors that take the program as a
// parameter: the program is read at each call, where it may be a
// constant.
package progparam

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"time"
)

// newHardenedCommand is reduced from real code: a group of its own, a
// Cancel that kills it, a WaitDelay; the program comes from the caller.
func newHardenedCommand(ctx context.Context, dir, name string, args ...string) *exec.Cmd { // want newHardenedCommand:`^execcheck\[result: \[made\(1\) group waitdelay cancel\(group:KILL\)\]\]$`
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Git runs git, a constant program that waits for its children: ok. It
// was a launcher ("the program (name) is not a constant").
func Git(ctx context.Context, dir string) (string, error) {
	var out bytes.Buffer
	cmd := newHardenedCommand(ctx, dir, "git", "worktree", "list")
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}

// Shell runs a script that starts a background job: a launcher.
func Shell(ctx context.Context, dir string) error {
	return newHardenedCommand(ctx, dir, "sh", "-c", "server &").Run() // want `^launcher: Cancel kills the group .* sh -c "server &" starts a background job`
}

// Any runs what it is given: a launcher.
func Any(ctx context.Context, dir string, argv []string) error {
	return newHardenedCommand(ctx, dir, argv[0], argv[1:]...).Run() // want `^launcher: .*the program \(argv\[0\]\) is not a constant`
}
