//go:build !windows

package check

// jobsOnly is false: a process group (or a cgroup) stops a tree here,
// and fixFor says which.
const jobsOnly = false

// fixJobFor is never called where jobsOnly is false.
func fixJobFor([]described) string { return "" }
