package proc

import "errors"

// NewTrackerWithoutCgroup is NewTracker where the cgroup cannot be made,
// as for a user without cgroup rights.
func NewTrackerWithoutCgroup(name string) *Tracker {
	return newTracker(name, func(string) (*Cgroup, error) { return nil, errors.New("no cgroup in this test") })
}

// LateRemains is lateRemains, with the processes running now as before.
func LateRemains(rs []*Remains, before map[int]bool, live []Identity) []Identity {
	return lateRemains(rs, before, live)
}

// Running lists the pids of every process now.
func Running() map[int]bool {
	pids := map[int]bool{}
	for _, pid := range current().pids() {
		pids[pid] = true
	}
	return pids
}

// TreesBy is Trees with the children from children.
var TreesBy = treesBy

// PortableReadStat is the portable mode's ReadStat, in either mode.
var PortableReadStat = psReadStat
