// Package bwrap builds the bubblewrap command lines that exectest's own
// tests and examples/matrix run commands in, so that each sandbox is
// spelled in one place, and says whether bubblewrap can make one here.
package bwrap

// Args is the command line, "bwrap" and its flags, to put before a
// command to run it in a sandbox: the host's root read-only, a /dev and a
// /proc of its own, the host's PID namespace. opts change that, in order.
// Each call returns a new slice: appending to it changes no other.
func Args(opts ...Option) []string {
	s := sandbox{dev: []string{"--dev", "/dev"}, proc: []string{"--proc", "/proc"}}
	for _, o := range opts {
		o(&s)
	}
	args := []string{"bwrap", "--ro-bind", "/", "/"}
	args = append(args, s.mounts...)
	args = append(args, s.dev...)
	args = append(args, s.proc...)
	return append(args, s.namespaces...)
}

// An Option changes the sandbox [Args] makes.
type Option func(*sandbox)

// sandbox holds the flags in the order bwrap needs them: mounts over the
// root before /dev and /proc, which bwrap mounts after.
type sandbox struct {
	mounts     []string
	dev, proc  []string
	namespaces []string
}

// UnsharePID gives the sandbox a PID namespace of its own that dies with
// bwrap: killing bwrap kills everything inside, setsid daemons too.
func UnsharePID() Option {
	return func(s *sandbox) { s.namespaces = append(s.namespaces, "--unshare-pid", "--die-with-parent") }
}

// NoDev leaves /dev an empty tmpfs: no /dev/null.
func NoDev() Option {
	return func(s *sandbox) { s.dev = []string{"--tmpfs", "/dev"} }
}

// NoProc leaves /proc an empty tmpfs: nothing there to identify a
// process by.
func NoProc() Option {
	return func(s *sandbox) { s.proc = []string{"--tmpfs", "/proc"} }
}

// Hide mounts an empty tmpfs on dir: what the host has there is out of
// reach.
func Hide(dir string) Option {
	return func(s *sandbox) { s.mounts = append(s.mounts, "--tmpfs", dir) }
}

// Bind puts the host's file or folder src at dst, read-only.
func Bind(src, dst string) Option {
	return func(s *sandbox) { s.mounts = append(s.mounts, "--ro-bind", src, dst) }
}
