package proc

import "errors"

// Cgroup is a cgroup v2 made for one fixture. Every process forked by a
// member stays a member, whatever it does (setsid, double fork), so its
// process list is the fixture's whole tree; cgroup.kill kills it at once.
// Only the Linux mode makes one.
type Cgroup struct {
	Path string
}

// errNoCgroup says why the portable mode tracks without a cgroup.
var errNoCgroup = errors.New("portable mode: no cgroup (Linux only, and not with " + PortableEnv + "=1)")
