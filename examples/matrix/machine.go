package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// machine is what the figures depend on.
type machine struct {
	Go     string  `json:"go"`
	Kernel string  `json:"kernel"`
	CPUs   int     `json:"cpus"`
	Root   bool    `json:"root"`
	Bound  string  `json:"bound"`
	Runs   int     `json:"runs"`
	Load   float64 `json:"load_1m"`
}

func describeMachine(bound time.Duration, runs int) machine {
	m := machine{Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(),
		Root: os.Geteuid() == 0, Bound: bound.String(), Runs: runs}
	m.Kernel = kernelRelease()
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscan(strings.Fields(string(b))[0], &m.Load)
	}
	return m
}

func (m machine) String() string {
	who := "not root"
	if m.Root {
		who = "root"
	}
	return fmt.Sprintf("exectest matrix: %s, %s %s, %d CPUs, %s, load %.2f; bound %s, %d run(s) per cell",
		m.Go, runtime.GOOS, m.Kernel, m.CPUs, who, m.Load, m.Bound, m.Runs)
}
