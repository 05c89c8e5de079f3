package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/exectest/exectest/internal/testenv"
)

func TestMain(m *testing.M) {
	// The burners re-execute os.Executable, which in a test is this binary.
	maybeBurn()
	testenv.RunHelper(map[string]func([]string){helperParentRole: helperParent})
	os.Exit(m.Run())
}

// writeModule creates a module example.com/ft with the given files and
// makes the test run in it, with a go environment that the caller's cannot
// skew.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/ft\n\ngo 1.26\n"
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOTOOLCHAIN", "local")
	return dir
}

const threeWays = `package ft

import "testing"

func TestPass(t *testing.T) {}
func TestFail(t *testing.T) { t.Fatal("boom: the reason") }
func TestSkip(t *testing.T) { t.Skip("not here") }
`

const panickingTestMain = `package tm

import "testing"

func TestMain(m *testing.M) { panic("boom in TestMain") }
func TestNever(t *testing.T) {}
`

func TestEndToEnd(t *testing.T) {
	writeModule(t, map[string]string{"ft_test.go": threeWays, "tm/tm_test.go": panickingTestMain})

	var stdout, stderr bytes.Buffer
	code := run([]string{"-count", "3", "-load", "1", "."}, &stdout, &stderr)
	out := stdout.String()
	t.Logf("stdout:\n%s\nstderr:\n%s", out, stderr.String())
	if code != 1 {
		t.Errorf("exit code: got %d, want 1", code)
	}
	if !strings.HasPrefix(out, "flakehunt: go test -json -count=3 . under 1 burners on ") {
		t.Errorf("header: got %q", strings.SplitN(out, "\n", 2)[0])
	}
	for _, row := range []string{
		`example\.com/ft\s+TestFail\s+3\s+0\s+3\s+0\s`,
		`example\.com/ft\s+TestPass\s+3\s+3\s+0\s+0\s`,
		`example\.com/ft\s+TestSkip\s+3\s+0\s+0\s+3\s`,
	} {
		if !regexp.MustCompile(`(?m)^` + row).MatchString(out) {
			t.Errorf("no row matching %s", row)
		}
	}
	if strings.Contains(out, packageTest) {
		t.Errorf("a package failure explained by its test got a %s row", packageTest)
	}
	if !strings.Contains(out, "boom: the reason") {
		t.Errorf("the failure's output is missing")
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if got, want := lines[len(lines)-1], "3 passed, 3 failed, 3 skipped"; got != want {
		t.Errorf("last line: got %q, want %q", got, want)
	}
	if got := lines[len(lines)-2]; !strings.HasPrefix(got, "9 test runs in ") || !strings.HasSuffix(got, " runs/s") {
		t.Errorf("rate line: got %q, want \"9 test runs in T: R runs/s\"", got)
	}
	assertNoChildren(t)

	// A package that dies before its tests: a row of its own, its panic
	// shown, exit 1.
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"-count", "2", "-load", "0", "./tm"}, &stdout, &stderr)
	out = stdout.String()
	if code != 1 {
		t.Errorf("panicking TestMain: exit code: got %d, want 1\n%s", code, out)
	}
	if !regexp.MustCompile(`(?m)^example\.com/ft/tm\s+\(package\)\s+1\s+0\s+1\s+0\s`).MatchString(out) ||
		!strings.Contains(out, "panic: boom in TestMain") ||
		!strings.HasSuffix(out, "\n0 passed, 1 failed, 0 skipped\n") {
		t.Errorf("panicking TestMain: got\n%s", out)
	}
}

func TestEndToEndJSON(t *testing.T) {
	writeModule(t, map[string]string{"ft_test.go": threeWays, "slow_test.go": `package ft

import (
	"testing"
	"time"
)

func TestSlowish(t *testing.T) { time.Sleep(50 * time.Millisecond) }
`})
	var stdout, stderr bytes.Buffer
	code := run([]string{"-count", "2", "-load", "0", "-bound", "1h", "-json", "--", "-run", "Pass|Skip", "."}, &stdout, &stderr)
	if code != 0 {
		t.Errorf("exit code: got %d, want 0; stderr:\n%s", code, stderr.String())
	}
	var rep jsonReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout.String())
	}
	if rep.Passed != 2 || rep.Failed != 0 || rep.Skipped != 2 || len(rep.Tests) != 2 || rep.BoundMS != 3.6e6 {
		t.Errorf("got %+v", rep)
	}
	if want := []string{"go", "test", "-json", "-count=2", "-run", "Pass|Skip", "."}; strings.Join(rep.Command, " ") != strings.Join(want, " ") {
		t.Errorf("command: got %q, want %q", rep.Command, want)
	}
	for _, tt := range rep.Tests {
		if tt.Test == "TestSkip" && tt.MinMS != nil {
			t.Errorf("TestSkip: min_ms: got %v, want null", *tt.MinMS)
		}
		if tt.Test == "TestPass" && (tt.MinMS == nil || tt.P99MS == nil || tt.Runs != 2) {
			t.Errorf("TestPass: got %+v", tt)
		}
	}
}

// A run slower than the bound fails the hunt even though every run passed.
func TestEndToEndOutliers(t *testing.T) {
	writeModule(t, map[string]string{"slow_test.go": `package ft

import (
	"testing"
	"time"
)

func TestSlowish(t *testing.T) { time.Sleep(50 * time.Millisecond) }
`})
	var stdout, stderr bytes.Buffer
	code := run([]string{"-count", "2", "-load", "0", "-bound", "10ms", "."}, &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Errorf("exit code: got %d, want 1", code)
	}
	if !regexp.MustCompile(`(?m)^example\.com/ft\s+TestSlowish\s+2\s+2\s+0\s+0\s.*\s2$`).MatchString(out) ||
		!strings.HasSuffix(out, "\n2 passed, 0 failed, 0 skipped\n") {
		t.Errorf("got\n%s\nstderr:\n%s", out, stderr.String())
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-count", "0", "."}, "flakehunt: -count: got 0, want >= 1"},
		{[]string{"-load", "-1", "."}, "flakehunt: -load: got -1, want >= 0"},
		{[]string{"-bound", "-1s", "."}, "flakehunt: -bound: got -1s, want >= 0"},
		{[]string{"-race", "."}, "flakehunt: flag: got -race, want one of"},
		{[]string{".", "-count=5"}, "flakehunt: go test flags: got -count=5, want"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		if code != 2 || !strings.HasPrefix(stderr.String(), tc.want) || stdout.Len() != 0 {
			t.Errorf("run(%q): got exit %d, stderr %q, stdout %q; want exit 2, stderr starting %q", tc.args, code, stderr.String(), stdout.String(), tc.want)
		}
	}
	// Flags after the packages or after -- are go test's.
	cfg, err := parseArgs([]string{"-count", "4", "--", "-race", "./..."})
	if err != nil || cfg.count != 4 || strings.Join(cfg.goArgs, " ") != "-race ./..." {
		t.Errorf("parseArgs with --: got %+v, %v", cfg, err)
	}
	cfg, err = parseArgs([]string{"-json", "./...", "-run", "X", "-v"})
	if err != nil || !cfg.json || strings.Join(cfg.goArgs, " ") != "./... -run X -v" {
		t.Errorf("parseArgs: got %+v, %v", cfg, err)
	}
}

// assertNoChildren fails for any process, zombies included, whose parent
// is this test process: a burner or go test that was not killed and
// reaped.
func assertNoChildren(t *testing.T) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, ok := readStat(pid)
		if !ok || st.ppid != os.Getpid() {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		t.Errorf("child left behind: pid %d, state %c, burner %v, cmdline %q",
			pid, st.state, bytes.Contains(cmdline, []byte(burnArg)), bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
}
