package main

import (
	"os/exec"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/bwrap"
	"github.com/exectest/exectest/internal/proc"
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
		{name: "job-control (set -m) descendant", opts: shape(exectest.JobControl()), unavailable: needs("bash")},
		{name: "TERM-ignoring descendant", opts: shape(exectest.IgnoresTerm()), unavailable: always},
		{name: "escaping (setsid) descendant", opts: shape(exectest.Escaping()), unavailable: needs("setsid")},
		{name: "double-fork daemon", opts: shape(exectest.DoubleFork()), unavailable: needs("setsid")},
		{name: "bwrap, shared PID namespace", wrap: bwrap.Args(), unavailable: bwrapUnavailable},
		{name: "bwrap --unshare-pid --die-with-parent", wrap: bwrap.Args(bwrap.UnsharePID()), unavailable: both(bwrapUnavailable, otherPIDNamespace)},
		{name: "hermetic fixture", opts: shape(exectest.Hermetic()), unavailable: always},
	}
}

func always() string { return "" }

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
	if proc.Portable() {
		return portableNoPIDNamespace
	}
	return ""
}

// portableNoPIDNamespace starts the reason of a row the portable mode
// cannot measure.
const portableNoPIDNamespace = "portable mode: cannot follow processes in another PID namespace"

// bwrapUnavailable says why bubblewrap makes no sandbox here, or "".
func bwrapUnavailable() string {
	if err := bwrap.Probe(); err != nil {
		return err.Error()
	}
	return ""
}
