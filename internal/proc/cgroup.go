package proc

import "errors"

// cgroupPrefix starts the name of every cgroup the toolkit makes (no
// parent folder to make and remove each time), and of every fixture
// folder.
const cgroupPrefix = "exectest-"

// Cgroup is a cgroup v2 made for one fixture. Every process forked by a
// member stays a member, whatever it does (setsid, double fork), so its
// process list is the fixture's whole tree; cgroup.kill kills it at once.
// Only the Linux mode makes one.
type Cgroup struct {
	Path string
}

// errNoCgroup says why the portable mode tracks without a cgroup.
var errNoCgroup = errors.New("portable mode: no cgroup (Linux only, and not with " + PortableEnv + "=1)")

// members identifies the members, those that can still be.
func (c *Cgroup) members() []Identity {
	pids, err := c.PIDs()
	if err != nil {
		return nil
	}
	var ids []Identity
	for _, pid := range pids {
		if id, err := Identify(pid); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}
