//go:build unix

package check_test

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/systemtest"
)

// asUser runs the command as uid and gid, with the cancel policy.
func asUser(uid, gid uint32) systemtest.Runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := systemtest.Command(ctx, argv)
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			//execcheck:ignore tests cancelpolicy.Apply as another user on the waiting fixture
			return cmd.Run()
		}
	}
}

// Code under test that runs its command as another user: the fixture may
// write its FIFO but not read it, and must still report.
func TestAssertCancelAsAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running the command as nobody needs root")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("user nobody: %v", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	for _, sh := range systemtest.Shapes {
		t.Run(sh.Name, func(t *testing.T) {
			t.Parallel()
			if sh.Name == "hermetic" {
				exe, _ := os.Executable()
				if err := searchableByOthers(exe); err != nil {
					t.Skipf("the hermetic shape as nobody: the test binary %s: %v (go test builds in a folder of mode 0700; go test -c and run the binary from elsewhere to check this shape)", exe, err)
				}
			}
			var res exectest.Result
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, sh.Opts...)
				res = exectest.AssertCancel(tb, d, asUser(uint32(uid), uint32(gid))(d.Argv()))
			})
			f.WantVerdict(t, "pass")
			if !res.Proved {
				t.Errorf("Result.Proved: got false, want the descendant proved alive")
			}
		})
	}
}

// searchableByOthers says why a user other than the owner cannot exec
// path: a folder on the way, or the file, without x for others.
func searchableByOthers(path string) error {
	for p := path; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return &os.PathError{Op: "exec as another user", Path: p, Err: os.ErrPermission}
		}
		if p == "/" {
			return nil
		}
	}
}

// inDir runs the command in dir, with the cancel policy.
func inDir(dir string) systemtest.Runner {
	return func(argv []string) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := systemtest.Command(ctx, argv)
			cmd.Dir = dir
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			//execcheck:ignore tests cancelpolicy.Apply in another directory on the waiting fixture
			return cmd.Run()
		}
	}
}

// A relative TMPDIR must not make the fixture's paths relative: the code
// under test may run the command in another working directory.
func TestAssertCancelRelativeTMPDIR(t *testing.T) {
	elsewhere := t.TempDir()
	t.Chdir(t.TempDir())
	if err := os.Mkdir("tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", "tmp")
	for _, sh := range systemtest.Shapes {
		t.Run(sh.Name, func(t *testing.T) {
			var res exectest.Result
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb, sh.Opts...)
				res = exectest.AssertCancel(tb, d, inDir(elsewhere)(d.Argv()))
			})
			f.WantVerdict(t, "pass")
			if !res.Proved {
				t.Errorf("Result.Proved: got false, want the descendant proved alive")
			}
		})
	}
}
