// Package leaves holds runs of programs that start no process of their
// own (ok: the default Cancel's kill of the direct child ends every
// holder of the output pipe), beside programs that may (a hang).
package leaves

import (
	"context"
	"os/exec"
)

// Lsof: lsof's only child is a helper that closes every descriptor but
// its own request pipes at once, and dies with lsof.
func Lsof(ctx context.Context, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "lsof", "-t", "+D", dir).Output()
}

// Grep, Stat, Du and Jq start no process.
func Grep(ctx context.Context, pattern, file string) ([]byte, error) {
	return exec.CommandContext(ctx, "grep", "-n", pattern, file).Output()
}

func Stat(ctx context.Context, file string) ([]byte, error) {
	return exec.CommandContext(ctx, "/usr/bin/stat", file).CombinedOutput()
}

func Du(ctx context.Context, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "du", "-sh", dir).Output()
}

func Jq(ctx context.Context, filter, file string) ([]byte, error) {
	return exec.CommandContext(ctx, "jq", filter, file).Output()
}

// Ffmpeg starts no process (round 8: spindle's transcription, a false
// hang).
func Ffmpeg(ctx context.Context, in, out string) ([]byte, error) {
	return exec.CommandContext(ctx, "ffmpeg", "-y", "-i", in, "-vn", "-ac", "1", out).CombinedOutput()
}

// Pidof starts no process (round 10: gpud's pids.go, a false orphan).
func Pidof(ctx context.Context, name string) ([]byte, error) {
	return exec.CommandContext(ctx, "pidof", name).Output()
}

// Find may run -exec; tar may run a compressor: neither is a leaf.
func Find(ctx context.Context, dir string) ([]byte, error) {
	return exec.CommandContext(ctx, "find", dir, "-name", "*.go").Output() // want `^hang: the output is collected by Output\(\)`
}

func Tar(ctx context.Context, file string) ([]byte, error) {
	return exec.CommandContext(ctx, "tar", "-tzf", file).Output() // want `^hang: the output is collected by Output\(\)`
}

// SleepNamed is reduced from mgmt's exec test: the program is a local
// variable set once to a constant.
func SleepNamed(ctx context.Context) error {
	cmdName := "/bin/sleep"
	cmdArgs := []string{"300"}
	cmd := exec.CommandContext(ctx, cmdName, cmdArgs...)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Wait()
}

// Renamed: a variable assigned again may name another program.
func Renamed(ctx context.Context, alt bool) error {
	name := "sleep"
	if alt {
		name = "make"
	}
	return exec.CommandContext(ctx, name, "1").Run() // want `^orphan: a cancel kills only the direct child`
}

// Beep is reduced from codebase-cli's audio player: aplay fed on stdin,
// killed by hand.
func Beep(pcm []byte) error {
	cmd := exec.Command("aplay", "-t", "raw", "-f", "S16_LE", "-q")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	_, _ = in.Write(pcm)
	_ = cmd.Process.Kill()
	return cmd.Wait()
}

// Fetch, Unpack and DeveloperDir: curl, xz and xcode-select start no
// process (round 24: dev-machine-guard's xcode-select -p, a false hang).
func Fetch(ctx context.Context, url string) ([]byte, error) {
	return exec.CommandContext(ctx, "curl", "-fsSL", url).Output()
}

func Unpack(ctx context.Context, file string) ([]byte, error) {
	return exec.CommandContext(ctx, "xz", "-dc", file).Output()
}

func DeveloperDir(ctx context.Context) ([]byte, error) {
	return exec.CommandContext(ctx, "xcode-select", "-p").Output()
}
