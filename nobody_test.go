package exectest_test

import (
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runAsNobody runs the tests that run selects in a copy of this test
// binary as the user nobody, as CI's unprivileged run does: no cgroup,
// the fallback trackers. It needs root; without it the selected tests ran
// as this unprivileged user already.
func runAsNobody(t *testing.T, run string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: the tests ran as this unprivileged user already")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody to run as: %v", err)
	}
	su, err := exec.LookPath("su")
	if err != nil {
		t.Skipf("no su(1) to run as nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// Not t.TempDir: nobody must reach the binary through every folder.
	dir, err := os.MkdirTemp("", "exectest_asnobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "exectest.test")
	tmp := filepath.Join(dir, "tmp")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := copyExecutable(bin); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, uid, gid); err != nil {
		t.Fatal(err)
	}
	script := "exec env -u GOCOVERDIR TMPDIR=" + shQuote(tmp) + " HOME=" + shQuote(tmp) + " " + shQuote(noRaceExitSleep) + " " + shQuote(bin) +
		" -test.run=" + shQuote(run) + " -test.count=1 -test.v"
	cmd := exec.Command(su, "nobody", "-s", "/bin/sh", "-c", script)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	t.Logf("as nobody (uid %d): %s\n%s", uid, run, out)
	switch {
	case err != nil:
		t.Errorf("tests as nobody: got %v, want them passed", err)
	case !strings.Contains(string(out), "--- PASS") || strings.Contains(string(out), "--- SKIP"):
		t.Errorf("tests as nobody: got skipped or none run, want them passed")
	}
}

// copyExecutable copies this test binary to path, executable by all.
func copyExecutable(path string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	src, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
