//go:build !linux

package main

import (
	"context"
	"errors"
	"io"
)

// errLinuxOnly says why flakehunt does not run here: it stops go test's
// whole process group, waits for go test without reaping it (waitid
// WNOWAIT) and ties its CPU burners to its own life (Pdeathsig), all of
// them Linux's.
var errLinuxOnly = errors.New("flakehunt: runs on Linux only (it needs waitid without reaping and a parent-death signal)")

// burners are none here.
type burners struct{}

func startBurners(k int) (*burners, error) {
	if k > 0 {
		return nil, errLinuxOnly
	}
	return &burners{}, nil
}

func (b *burners) stop() error { return nil }
func (b *burners) pids() []int { return nil }

func runGoTest(context.Context, []string, *aggregator, io.Writer) (goTestResult, error) {
	return goTestResult{}, errLinuxOnly
}
