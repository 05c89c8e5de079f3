package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
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

// envs are the tree shapes first ("direct" is the default one: the child
// waits for its descendant), then the sandboxes and the hermetic fixture,
// all with the default shape.
func envs() []env {
	shape := func(o exectest.DescendantOption) []exectest.DescendantOption { return []exectest.DescendantOption{o} }
	return []env{
		{name: "direct", unavailable: always},
		{name: "launcher (child exits at once)", opts: shape(exectest.Launcher()), unavailable: always},
		{name: "job-control (set -m) descendant", opts: shape(exectest.JobControl()), unavailable: both(noShapeOnWindows, needs("bash"))},
		{name: "TERM-ignoring descendant", opts: shape(exectest.IgnoresTerm()), unavailable: noShapeOnWindows},
		{name: "escaping (setsid) descendant", opts: shape(exectest.Escaping()), unavailable: both(noShapeOnWindows, needs("setsid"))},
		{name: "double-fork daemon", opts: shape(exectest.DoubleFork()), unavailable: both(noShapeOnWindows, needs("setsid"))},
		{name: "bwrap, shared PID namespace", wrap: bwrapArgs(), unavailable: both(noBwrapOnWindows, bwrapUnavailable)},
		{name: "bwrap --unshare-pid --die-with-parent", wrap: append(bwrapArgs(), "--unshare-pid", "--die-with-parent"), unavailable: both(noBwrapOnWindows, both(bwrapUnavailable, otherPIDNamespace))},
		{name: "hermetic fixture", opts: shape(exectest.Hermetic()), unavailable: always},
	}
}

func always() string { return "" }

// onWindows starts the reason of a row that Windows cannot have: a fact
// of the system, not a program to install.
const onWindows = "windows: "

// noShapeOnWindows says that the shape needs what Windows lacks, or "".
func noShapeOnWindows() string {
	if runtime.GOOS == "windows" {
		return onWindows + "no such shape there (no sessions, process groups or signal dispositions of that kind)"
	}
	return ""
}

// noBwrapOnWindows says that bubblewrap is Linux's, or "".
func noBwrapOnWindows() string {
	if runtime.GOOS == "windows" {
		return onWindows + "no bubblewrap there (Linux namespaces)"
	}
	return ""
}

// needs says that the shell fixture's shape cannot be made here without
// a program, or "": without it the fixture would skip each cell of the
// row, and the row would say less than this.
func needs(program string) func() string {
	return func() string {
		if _, err := exec.LookPath(program); err != nil {
			return "the shape needs " + program + "(1): " + err.Error()
		}
		return ""
	}
}

// both says why a or b cannot run here, a first, or "".
func both(a, b func() string) func() string {
	return func() string {
		if why := a(); why != "" {
			return why
		}
		return b()
	}
}

// otherPIDNamespace says that the portable mode cannot follow a command
// into a PID namespace of its own, or "": each cell would skip.
func otherPIDNamespace() string {
	if portable() {
		return portableNoPIDNamespace
	}
	return ""
}

// portableNoPIDNamespace starts the reason of a row the portable mode
// cannot measure.
const portableNoPIDNamespace = "portable mode: cannot follow processes in another PID namespace"

// portable reports whether exectest's checks run in its portable mode,
// which follows processes by gopsutil and sees no PID namespace: the only
// mode off Linux, and on Linux when EXECTEST_PORTABLE is on. A value
// strconv.ParseBool rejects leaves exectest in the Linux mode, as here,
// and every check then fails naming the value: the row need not say it.
func portable() bool {
	if runtime.GOOS != "linux" {
		return true
	}
	on, _ := strconv.ParseBool(os.Getenv("EXECTEST_PORTABLE"))
	return on
}

// bwrapArgs is bubblewrap and its flags, to put before a command: the
// host's root read-only, a /dev and a /proc of the sandbox's own, and the
// host's PID namespace. Each call makes a new slice, so that appending
// to one changes no other.
func bwrapArgs() []string {
	return []string{"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
}

// bwrapUnavailable says why bubblewrap makes no sandbox here, or "".
// Installed is not enough: bwrap also needs user namespaces, or root, so
// it is asked to run /bin/true in the sandbox the rows use.
func bwrapUnavailable() string {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return fmt.Sprintf("bubblewrap not installed (apt-get install bubblewrap): %v", err)
	}
	args := append(bwrapArgs(), "/bin/true")
	out, err := exec.Command(path, args[1:]...).CombinedOutput()
	if err == nil {
		return ""
	}
	why := err.Error()
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(out) > 0 {
		why = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	return fmt.Sprintf("bwrap cannot make a sandbox here (no user namespaces?): %s: %v", why, err)
}
