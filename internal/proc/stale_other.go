//go:build !linux

package proc

// isCgroupFS is false: there is no cgroup file system off Linux.
func isCgroupFS(string) bool { return false }
