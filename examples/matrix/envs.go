package main

import (
	"errors"
	"os/exec"
	"strings"

	"github.com/exectest/exectest"
)

// An env is where the command runs: the fixture's shape and a wrapper
// around its command line.
type env struct {
	name string
	opts []exectest.DescendantOption
	wrap []string // put before the command line
	// unavailable says why the env cannot run here, or "".
	unavailable func() string
}

var bwrapShared = []string{"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}

func envs() []env {
	return []env{
		{name: "direct", unavailable: always},
		{name: "bwrap, shared PID namespace", wrap: bwrapShared, unavailable: bwrapUnavailable},
		{name: "bwrap --unshare-pid --die-with-parent", wrap: append(append([]string(nil), bwrapShared...), "--unshare-pid", "--die-with-parent"), unavailable: bwrapUnavailable},
		{name: "escaping (setsid) descendant", opts: []exectest.DescendantOption{exectest.Escaping()}, unavailable: always},
		{name: "hermetic fixture", opts: []exectest.DescendantOption{exectest.Hermetic()}, unavailable: always},
	}
}

func always() string { return "" }

// bwrapUnavailable tries a sandbox once: installed is not enough, it also
// needs user namespaces (or root).
func bwrapUnavailable() string {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "bubblewrap not installed (apt-get install bubblewrap)"
	}
	out, err := exec.Command(path, append(bwrapShared[1:], "/bin/true")...).CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		why := err.Error()
		if errors.As(err, &ee) && len(out) > 0 {
			why = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
		}
		return "bwrap cannot make a sandbox here (no user namespaces?): " + why
	}
	return ""
}
