package check_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/testenv"
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
	if err := testenv.CopyTestBinary(bin); err != nil {
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
	// What it left unreaped came to this test process, the child subreaper.
	proc.ReapAdopted()
	wantRerunPassed(t, fmt.Sprintf("as nobody (uid %d)", uid), run, out, err)
}

// wantRerunPassed checks that the tests that run selects passed, and none
// skipped, in a test binary run as how says.
func wantRerunPassed(t *testing.T, how, run string, out []byte, err error) {
	t.Helper()
	t.Logf("%s: %s\n%s", how, run, out)
	switch {
	case err != nil:
		t.Errorf("tests %s: got %v, want them passed", how, err)
	case !strings.Contains(string(out), "--- PASS") || strings.Contains(string(out), "--- SKIP"):
		t.Errorf("tests %s: got skipped or none run, want them passed", how)
	}
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
