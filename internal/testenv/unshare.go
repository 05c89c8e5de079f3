package testenv

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// unshareKillChild runs the command as pid 1 of a new PID namespace that
// dies with unshare: a cancel that kills unshare kills the whole
// namespace.
var unshareKillChild = []string{"--pid", "--fork", "--kill-child"}

// unshareWays are the command line prefixes tried in turn: plain unshare
// needs root (CAP_SYS_ADMIN); an unprivileged user may get the same from a
// user namespace of its own.
var unshareWays = [][]string{
	append([]string{"unshare"}, unshareKillChild...),
	append([]string{"unshare", "--user", "--map-root-user"}, unshareKillChild...),
}

// NeedUnshare returns the command line prefix that runs a command as pid
// 1 of a new PID namespace without a /proc of its own (its processes read
// the test's /proc, and see their pids there), with --kill-child, or
// skips t with the reason each way failed: a skip even under
// EXECTEST_STRICT=1. Without --kill-child (see [WithoutKillChild]) the
// namespace outlives unshare.
func NeedUnshare(t testing.TB) []string {
	t.Helper()
	var errs []error
	for _, w := range unshareWays {
		out, err := exec.Command(w[0], append(w[1:], "/bin/true")...).CombinedOutput()
		if err == nil {
			return append([]string(nil), w...)
		}
		errs = append(errs, fmt.Errorf("%s /bin/true: %w: %s", strings.Join(w, " "), err, strings.TrimSpace(string(out))))
	}
	t.Skipf("unshare: no PID namespace here (plain unshare needs root, the other way user namespaces):\n%v", errors.Join(errs...))
	return nil
}

// WithoutKillChild is prefix, from [NeedUnshare], without --kill-child:
// killing unshare then leaves the namespace's processes running.
func WithoutKillChild(prefix []string) []string {
	var out []string
	for _, a := range prefix {
		if a != "--kill-child" {
			out = append(out, a)
		}
	}
	return out
}
