package proctest

// Cgroup2Mount finds where the unified hierarchy is mounted, for tests
// that set up a cgroup of their own.
var Cgroup2Mount = cgroup2Mount
