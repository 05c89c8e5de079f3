package bwrap_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/bwrap"
)

// The command lines the tests ran before they were built here, word for
// word but one: a hidden folder's tmpfs came after /dev and /proc, and now
// comes before them (the folders hidden are under TMPDIR, apart from
// both). A change to the builder must not change a sandbox unnoticed.
func TestArgs(t *testing.T) {
	cases := []struct {
		name string
		opts []bwrap.Option
		want string
	}{
		{"shared pid", nil, "bwrap --ro-bind / / --dev /dev --proc /proc"},
		{"unshared pid", []bwrap.Option{bwrap.UnsharePID()}, "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid --die-with-parent"},
		{"no dev", []bwrap.Option{bwrap.NoDev()}, "bwrap --ro-bind / / --tmpfs /dev --proc /proc"},
		{"no proc", []bwrap.Option{bwrap.NoProc()}, "bwrap --ro-bind / / --dev /dev --tmpfs /proc"},
		{"hidden folder", []bwrap.Option{bwrap.Hide("/tmp/x")}, "bwrap --ro-bind / / --tmpfs /tmp/x --dev /dev --proc /proc"},
		{"no sleep", []bwrap.Option{bwrap.Hide("/usr/bin"), bwrap.Hide("/bin"), bwrap.Bind("/usr/bin/dash", "/bin/sh")},
			"bwrap --ro-bind / / --tmpfs /usr/bin --tmpfs /bin --ro-bind /usr/bin/dash /bin/sh --dev /dev --proc /proc"},
		{"another sleep", []bwrap.Option{bwrap.Hide("/opt"), bwrap.Bind("/usr/bin/sleep", "/opt/sleep"), bwrap.Bind("/x/sleep", "/usr/bin/sleep")},
			"bwrap --ro-bind / / --tmpfs /opt --ro-bind /usr/bin/sleep /opt/sleep --ro-bind /x/sleep /usr/bin/sleep --dev /dev --proc /proc"},
	}
	for _, c := range cases {
		if got := bwrap.Args(c.opts...); !slices.Equal(got, strings.Fields(c.want)) {
			t.Errorf("Args for %s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Appending to one command line must not write into another's.
func TestArgsAreFresh(t *testing.T) {
	opts := []bwrap.Option{bwrap.UnsharePID()}
	a := append(bwrap.Args(opts...), "/bin/a")
	b := append(bwrap.Args(opts...), "/bin/b")
	if a[len(a)-1] != "/bin/a" || b[len(b)-1] != "/bin/b" {
		t.Errorf("two command lines from Args, each appended to: got %q and %q, want each its own command", a, b)
	}
}
