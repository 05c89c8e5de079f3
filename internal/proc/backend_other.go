//go:build !linux

package proc

// Off Linux there is no /proc to read (or none like Linux's), no pidfd, no
// cgroup and no child subreaper: the portable mode is the only one.
func current() *backend { return &portableBackend }
