//go:build !linux && !windows

package cancelpolicy

import (
	"errors"
	"os/exec"
	"runtime"
)

// cgroup: cgroups are Linux's; Contain is an error elsewhere.
type cgroup struct{}

func newCgroup(*exec.Cmd) (*cgroup, error) {
	return nil, errors.New("cancelpolicy.Contain: not supported on " + runtime.GOOS + ": cgroups are Linux's; drop Contain")
}

func (*cgroup) started()        {}
func (*cgroup) populated() bool { return false }
func (*cgroup) kill() error     { return nil }
func (*cgroup) remove() error   { return nil }
