package main

import (
	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/bwrap"
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

func envs() []env {
	return []env{
		{name: "direct", unavailable: always},
		{name: "bwrap, shared PID namespace", wrap: bwrap.Args(), unavailable: bwrapUnavailable},
		{name: "bwrap --unshare-pid --die-with-parent", wrap: bwrap.Args(bwrap.UnsharePID()), unavailable: bwrapUnavailable},
		{name: "escaping (setsid) descendant", opts: []exectest.DescendantOption{exectest.Escaping()}, unavailable: always},
		{name: "hermetic fixture", opts: []exectest.DescendantOption{exectest.Hermetic()}, unavailable: always},
	}
}

func always() string { return "" }

// bwrapUnavailable says why bubblewrap makes no sandbox here, or "".
func bwrapUnavailable() string {
	if err := bwrap.Probe(); err != nil {
		return err.Error()
	}
	return ""
}
