package testenv

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// killChild runs the command as pid 1 of a new PID namespace that dies
// with unshare: a cancel that kills unshare kills the whole namespace.
var killChild = []string{"--pid", "--fork", "--kill-child"}

// ways are the command line prefixes tried in turn: plain unshare needs
// root (CAP_SYS_ADMIN); an unprivileged user may get the same from a user
// namespace of its own.
var ways = [][]string{
	append([]string{"unshare"}, killChild...),
	append([]string{"unshare", "--user", "--map-root-user"}, killChild...),
}

// NeedUnshare returns the command line prefix that runs a command as pid
// 1 of a new PID namespace without a /proc of its own (its processes read
// the test's /proc, and see their pids there), with --kill-child, or
// skips tb with the reason each way failed. Without --kill-child (see
// [WithoutKillChild]) the namespace outlives unshare.
func NeedUnshare(tb testing.TB) []string {
	tb.Helper()
	var errs []error
	for _, w := range ways {
		out, err := exec.Command(w[0], append(w[1:], "/bin/true")...).CombinedOutput()
		if err == nil {
			return append([]string(nil), w...)
		}
		errs = append(errs, fmt.Errorf("%s /bin/true: %w: %s", strings.Join(w, " "), err, strings.TrimSpace(string(out))))
	}
	tb.Skipf("unshare: no PID namespace here (plain unshare needs root, the other way user namespaces):\n%v", errors.Join(errs...))
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
