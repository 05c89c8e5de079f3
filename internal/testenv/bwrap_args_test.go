package testenv_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/testenv"
)

// The command lines the tests ran before they were built here, word for
// word but one: a hidden folder's tmpfs came after /dev and /proc, and now
// comes before them (the folders hidden are under TMPDIR, apart from
// both). A change to the builder must not change a sandbox unnoticed.
func TestArgs(t *testing.T) {
	cases := []struct {
		name string
		opts []testenv.BwrapOption
		want string
	}{
		{"shared pid", nil, "bwrap --ro-bind / / --dev /dev --proc /proc"},
		{"unshared pid", []testenv.BwrapOption{testenv.BwrapUnsharePID()}, "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid --die-with-parent"},
		{"no dev", []testenv.BwrapOption{testenv.BwrapNoDev()}, "bwrap --ro-bind / / --tmpfs /dev --proc /proc"},
		{"no proc", []testenv.BwrapOption{testenv.BwrapNoProc()}, "bwrap --ro-bind / / --dev /dev --tmpfs /proc"},
		{"hidden folder", []testenv.BwrapOption{testenv.BwrapHide("/tmp/x")}, "bwrap --ro-bind / / --tmpfs /tmp/x --dev /dev --proc /proc"},
		{"no sleep", []testenv.BwrapOption{testenv.BwrapHide("/usr/bin"), testenv.BwrapHide("/bin"), testenv.BwrapBind("/usr/bin/dash", "/bin/sh")},
			"bwrap --ro-bind / / --tmpfs /usr/bin --tmpfs /bin --ro-bind /usr/bin/dash /bin/sh --dev /dev --proc /proc"},
		{"another sleep", []testenv.BwrapOption{testenv.BwrapHide("/opt"), testenv.BwrapBind("/usr/bin/sleep", "/opt/sleep"), testenv.BwrapBind("/x/sleep", "/usr/bin/sleep")},
			"bwrap --ro-bind / / --tmpfs /opt --ro-bind /usr/bin/sleep /opt/sleep --ro-bind /x/sleep /usr/bin/sleep --dev /dev --proc /proc"},
	}
	for _, c := range cases {
		if got := testenv.BwrapArgs(c.opts...); !slices.Equal(got, strings.Fields(c.want)) {
			t.Errorf("Args for %s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Appending to one command line must not write into another's.
func TestArgsAreFresh(t *testing.T) {
	opts := []testenv.BwrapOption{testenv.BwrapUnsharePID()}
	a := append(testenv.BwrapArgs(opts...), "/bin/a")
	b := append(testenv.BwrapArgs(opts...), "/bin/b")
	if a[len(a)-1] != "/bin/a" || b[len(b)-1] != "/bin/b" {
		t.Errorf("two command lines from Args, each appended to: got %q and %q, want each its own command", a, b)
	}
}
