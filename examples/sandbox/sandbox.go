// Package sandbox is code under test in the shape real code has: a runner
// that runs commands inside bubblewrap, or directly, and collects their
// output. Every exec site goes through one function that runs the command
// with cancelpolicy.Run, so that none can miss it.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"os/exec"

	"github.com/exectest/exectest/cancelpolicy"
)

// A Profile says how a command is sandboxed.
type Profile struct {
	Name string
	// PrivatePID gives the sandbox a PID namespace of its own that dies
	// with the runner: nothing inside can outlive it, not even a setsid
	// daemon. Sharing the host's namespace leaves that to the cancel.
	PrivatePID bool
}

// The profiles.
var (
	SharedPID  = Profile{Name: "shared PID namespace"}
	PrivatePID = Profile{Name: "private PID namespace", PrivatePID: true}
)

// ErrNoBwrap says that bubblewrap is not installed.
var ErrNoBwrap = errors.New("sandbox: bwrap not found on PATH (apt-get install bubblewrap)")

// Run runs argv inside bubblewrap with the profile p: the host's root
// read-only, a /dev and a /proc of its own.
func Run(ctx context.Context, p Profile, argv []string) ([]byte, error) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, ErrNoBwrap
	}
	wrapped := []string{bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	if p.PrivatePID {
		wrapped = append(wrapped, "--unshare-pid", "--die-with-parent")
	}
	return run(ctx, append(wrapped, argv...))
}

// runDirect runs argv without a sandbox, for trusted commands.
func runDirect(ctx context.Context, argv []string) ([]byte, error) {
	return run(ctx, argv)
}

// run is the one exec site.
func run(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cancelpolicy.Run(ctx, cmd)
	return out.Bytes(), err
}
