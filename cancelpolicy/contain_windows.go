package cancelpolicy

import "os/exec"

// cgroup: on Windows the command's Job Object is the container. It holds
// every descendant already (the job allows no breakaway), so Contain needs
// no cgroup: it only makes Wait terminate what is left in the job instead
// of leaving it running (see group.unpin).
type cgroup struct{}

func newCgroup(*exec.Cmd) (*cgroup, error) { return nil, nil }

func (*cgroup) started()        {}
func (*cgroup) populated() bool { return false }
func (*cgroup) kill() error     { return nil }
func (*cgroup) remove() error   { return nil }
