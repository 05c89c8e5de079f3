package check_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// sandboxFixRows are the fix lines of where the command runs (a sandbox
// without /proc, /dev or /bin/sleep, or that hides the fixture's folder),
// and of a tree that left the group, fixed by a PID namespace: each row
// runs its command in bubblewrap.
func sandboxFixRows() []fixRow {
	F := check.FixLines
	return []fixRow{
		{name: "escaped, group killed: PID namespace", opts: []exectest.DescendantOption{exectest.Escaping()}, need: needPIDNamespace, broken: killsGroup,
			want: lines(S(F["contain"])), fixed: inSandbox(testenv.BwrapArgs(testenv.BwrapUnsharePID()), killsGroup)},
		{name: "no /proc", vacuous: true, need: needProcSight, broken: inSandbox(testenv.BwrapArgs(testenv.BwrapNoProc()), runs(asIs)),
			want: lines(F["mount /proc"]), fixed: inSandbox(testenv.BwrapArgs(), runs(asIs))},
		{name: "no /dev", vacuous: true, need: func(t *testing.T) { testenv.NeedBwrap(t) }, broken: inSandbox(testenv.BwrapArgs(testenv.BwrapNoDev()), runs(asIs)),
			want: lines(F["/dev"]), fixed: inSandbox(testenv.BwrapArgs(), runs(asIs))},
		{name: "no /bin/sleep: bind it", vacuous: true, need: func(t *testing.T) { testenv.NeedBwrap(t) }, broken: inSandbox(noSleep, runs(asIs)),
			want: lines(F["/bin/sleep"]), fixed: inSandbox(testenv.BwrapArgs(), runs(asIs))},
		{name: "no /bin/sleep: hermetic", vacuous: true, need: func(t *testing.T) { testenv.NeedBwrap(t) }, broken: inSandbox(noSleep, runs(asIs)),
			want: lines(F["/bin/sleep"]), fixed: inSandbox(noSleep, runs(asIs)), fixedOpts: []exectest.DescendantOption{exectest.Hermetic()}},
		{name: "folder hidden", vacuous: true, need: func(t *testing.T) { testenv.NeedBwrap(t) }, broken: hidesFolder,
			want: func(d *exectest.Descendant) []string { return []string{check.FixReach(filepath.Dir(d.Script()))} }, fixed: inSandbox(testenv.BwrapArgs(), runs(asIs))},
		{name: "portable mode, PID namespace", vacuous: true, need: needPortable, broken: inSandbox(unsharedPID, runs(asIs)),
			want: lines(F["portable PID namespace"]), fixed: inSandbox(sharedPID, runs(asIs))},
	}
}

// hidesFolder runs the command where the fixture's folder is hidden.
func hidesFolder(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
	return inSandbox(testenv.BwrapArgs(testenv.BwrapHide(filepath.Dir(d.Script()))), runs(asIs))(b, d, rp)
}

// needProcSight: the portable mode reads no /proc, so a sandbox without
// one changes nothing for it.
func needProcSight(t *testing.T) {
	systemtest.NeedSight(t, "/proc's absence: it reads none")
	testenv.NeedBwrap(t)
}

func needPIDNamespace(t *testing.T) {
	systemtest.NeedSight(t, "processes in another PID namespace")
	testenv.NeedBwrap(t)
}

func needPortable(t *testing.T) {
	if !systemtest.Portable {
		t.Skip("the Linux mode follows a PID namespace of the sandbox's own: this fix line is the portable mode's")
	}
	testenv.NeedBwrap(t)
}
