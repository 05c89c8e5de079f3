//go:build !linux

package proc

// NewCgroup fails: cgroups are Linux's.
func NewCgroup(string) (*Cgroup, error) { return nil, errNoCgroup }

// The methods of a Cgroup that cannot exist here: the tracker calls them
// only on one it has.

func (c *Cgroup) Add(int) error         { return errNoCgroup }
func (c *Cgroup) PIDs() ([]int, error)  { return nil, errNoCgroup }
func (c *Cgroup) Kill() error           { return errNoCgroup }
func (c *Cgroup) Remove() error         { return errNoCgroup }
func (c *Cgroup) contains(int) bool     { return false }
func (c *Cgroup) is(string) bool        { return false }
func (c *Cgroup) removeEmpty() bool     { return false }
func cgroupOf(int) (string, error)      { return "", errNoCgroup }
func readCgroup(string) (string, error) { return "", errNoCgroup }
func Cgroup2Mount() (string, error)     { return "", errNoCgroup }
