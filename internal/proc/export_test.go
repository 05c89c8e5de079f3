package proc

import "errors"

// Cgroup2Mount finds where the unified hierarchy is mounted, for tests
// that set up a cgroup of their own.
var Cgroup2Mount = cgroup2Mount

// NewTrackerWithoutCgroup is NewTracker where the cgroup cannot be made,
// as for a user without cgroup rights.
func NewTrackerWithoutCgroup(name string) *Tracker {
	return newTracker(name, func(string) (*Cgroup, error) { return nil, errors.New("no cgroup in this test") })
}
