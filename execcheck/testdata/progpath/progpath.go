// Package progpath names programs by a path a constant names:
// exec.LookPath of a constant. The program
// is read as that constant (a leaf, a shell with its script); a variable
// set again, or a path joined to a directory, is not read.
package progpath

import (
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Transcode finds ffmpeg on PATH first: a leaf.
func Transcode(ctx context.Context, in, out string) ([]byte, error) {
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, err
	}
	return exec.CommandContext(ctx, ffmpeg, "-y", "-i", in, out).CombinedOutput()
}

// Fake: a path joined to a directory may name a script the package
// wrote (kilroy's test writes a bash script named codex that starts a
// background job): it is not read as the program it is named after.
func Fake(ctx context.Context, dir string) ([]byte, error) {
	codex := filepath.Join(dir, "codex")
	return exec.CommandContext(ctx, codex, "exec").Output() // want `^hang: the output is collected by Output\(\)`
}

// Script runs bash, found on PATH, on a constant script that starts no
// background job, with a group kill in Cancel: no launcher.
func Script(ctx context.Context) error {
	bash, err := exec.LookPath("bash")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bash, "-c", "make build")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd.Run()
}

// Background: the script found the same way starts a background job
// and exits, so the group kill in Cancel may come too late.
func Background(ctx context.Context) error {
	sh, err := exec.LookPath("sh")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, sh, "-c", "sleep 30 & echo started")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd.Run() // want `^launcher: Cancel kills the group.* and sh -c "sleep 30 & echo started" starts a background job`
}

// Fallback: the path is set again where LookPath fails, so it may name
// another program.
func Fallback(ctx context.Context, in string) ([]byte, error) {
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		ffmpeg = "/opt/tools/convert"
	}
	return exec.CommandContext(ctx, ffmpeg, "-i", in).Output() // want `^hang: the output is collected by Output\(\)`
}

// Fetch: git is found the same way, and fetch may start ssh.
func Fetch(ctx context.Context, dir string) ([]byte, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	return exec.CommandContext(ctx, git, "-C", dir, "fetch").CombinedOutput() // want `^hang: the output is collected by CombinedOutput\(\)`
}
