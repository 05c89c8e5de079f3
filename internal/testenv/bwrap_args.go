package testenv

// The bubblewrap command lines that the tests run commands in, so that
// each sandbox is spelled in one place.

// BwrapArgs is the command line, "bwrap" and its flags, to put before a
// command to run it in a sandbox: the host's root read-only, a /dev and a
// /proc of its own, the host's PID namespace. opts change that, in order.
// Each call returns a new slice: appending to it changes no other.
func BwrapArgs(opts ...BwrapOption) []string {
	s := bwrapSandbox{dev: []string{"--dev", "/dev"}, proc: []string{"--proc", "/proc"}}
	for _, o := range opts {
		o(&s)
	}
	args := []string{"bwrap", "--ro-bind", "/", "/"}
	args = append(args, s.mounts...)
	args = append(args, s.dev...)
	args = append(args, s.proc...)
	return append(args, s.namespaces...)
}

// A BwrapOption changes the sandbox [BwrapArgs] makes.
type BwrapOption func(*bwrapSandbox)

// bwrapSandbox holds the flags in the order bwrap needs them: mounts over the
// root before /dev and /proc, which bwrap mounts after.
type bwrapSandbox struct {
	mounts     []string
	dev, proc  []string
	namespaces []string
}

// BwrapUnsharePID gives the sandbox a PID namespace of its own that dies with
// bwrap: killing bwrap kills everything inside, setsid daemons too.
func BwrapUnsharePID() BwrapOption {
	return func(s *bwrapSandbox) { s.namespaces = append(s.namespaces, "--unshare-pid", "--die-with-parent") }
}

// BwrapNoDev leaves /dev an empty tmpfs: no /dev/null.
func BwrapNoDev() BwrapOption {
	return func(s *bwrapSandbox) { s.dev = []string{"--tmpfs", "/dev"} }
}

// BwrapNoProc leaves /proc an empty tmpfs: nothing there to identify a
// process by.
func BwrapNoProc() BwrapOption {
	return func(s *bwrapSandbox) { s.proc = []string{"--tmpfs", "/proc"} }
}

// BwrapHide mounts an empty tmpfs on dir: what the host has there is out of
// reach.
func BwrapHide(dir string) BwrapOption {
	return func(s *bwrapSandbox) { s.mounts = append(s.mounts, "--tmpfs", dir) }
}

// BwrapBind puts the host's file or folder src at dst, read-only.
func BwrapBind(src, dst string) BwrapOption {
	return func(s *bwrapSandbox) { s.mounts = append(s.mounts, "--ro-bind", src, dst) }
}
