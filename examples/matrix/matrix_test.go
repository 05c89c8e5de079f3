package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/examples/runners"
)

func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

// The verdicts of want. R is either PASS or FAIL, for a cell whose
// verdict depends on os/exec's timing, not on the runner's design (a
// race): each is a true verdict.
const (
	P = "PASS"
	F = "FAIL"
	R = "raced"
)

// columns are want's columns: runners.All's names, in its order.
var columns = []string{"default Cancel", "Cancel = Process.Kill", "WaitDelay only", "Setpgid + group kill + WaitDelay",
	"cancelpolicy.Apply", "cancelpolicy.Run", "cancelpolicy.Run + Graceful", "cancelpolicy.Run + Contain", "abandoning select-on-ctx"}

// want is what each cell must find: the facts of the problem. A cell
// that cannot run here must say so (UNAVAILABLE), never pass.
//
// The launcher exits at once and its descendant proves it runs only once
// os/exec reaped it: os/exec then mostly no longer calls Cancel, so the
// group kill (by hand or Apply) does not run and Wait waits for WaitDelay
// (2s, past the bound); only Run's own watch of the context stops it. But
// a cancel that lands between the reap and the end of os/exec's context
// watch still gets the hand-written Cancel called, which kills the group:
// a true pass (root's TestTreeShapes saw it), hence R. Apply's Cancel
// is not raced: it signals nothing once the leader is reaped.
//
// The job and the daemon (and the escapee) leave the command's process
// group: no group signal reaches them, only the cgroup's kill. The
// TERM-ignoring descendant dies by any group SIGKILL: Graceful's SIGTERM
// misses it, and its SIGKILL 200ms later stops it.
var want = map[string][]string{
	// default Cancel, Process.Kill, WaitDelay only, group kill, Apply, Run, Graceful, Contain, abandoning
	"direct":                                {F, F, F, P, P, P, P, P, F},
	"launcher (child exits at once)":        {F, F, F, R, F, P, P, P, F},
	"job-control (set -m) descendant":       {F, F, F, F, F, F, F, P, F},
	"TERM-ignoring descendant":              {F, F, F, P, P, P, P, P, F},
	"escaping (setsid) descendant":          {F, F, F, F, F, F, F, P, F},
	"double-fork daemon":                    {F, F, F, F, F, F, F, P, F},
	"bwrap, shared PID namespace":           {F, F, F, P, P, P, P, P, F},
	"bwrap --unshare-pid --die-with-parent": {P, P, P, P, P, P, P, P, P},
	"hermetic fixture":                      {F, F, F, P, P, P, P, P, F},
}

// wantWindows is want on Windows, for the rows it can have: there no
// process group exists to kill (the hand-written group kill ends the
// direct child alone), Apply sets no Job Object, and Run's Job Object
// (Contain asks for nothing more) stops the tree, also after the
// launcher exited. Graceful is an error there: its column is unavailable.
var wantWindows = map[string][]string{
	"direct":                         {F, F, F, F, F, P, P, P, F},
	"launcher (child exits at once)": {F, F, F, F, F, P, P, P, F},
	"hermetic fixture":               {F, F, F, F, F, P, P, P, F},
}

func init() {
	if runtime.GOOS == "windows" {
		for name, w := range wantWindows {
			want[name] = w
		}
	}
}

// lateDeathSignal says whether a cell failed only where its sandbox's init
// outlived the process that started it: bwrap arms --die-with-parent only
// once the command runs (containers/bubblewrap#633), so a cell that kills
// bwrap alone fails now and then on a loaded machine, rightly.
func lateDeathSignal(r row) bool {
	fails := r.Verdicts[F]
	return fails > 0 && fails == r.OrphanedInits && fails+r.Verdicts[P] == r.Runs
}

// strictEnv is exectest's own switch for CI, which the matrix's test
// obeys too: on, no cell may go unmeasured for want of a program.
const strictEnv = "EXECTEST_STRICT"

// strictOn reads strictEnv as exectest does: unset or empty is off, any
// other value what strconv.ParseBool accepts. A typo must not pass for
// off, or CI would skip unseen what it set the switch to catch.
func strictOn() (bool, error) {
	v := os.Getenv(strictEnv)
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: got %q, want what strconv.ParseBool accepts (1 or true: on; 0 or false: off) or unset (off)", strictEnv, v)
	}
	return on, nil
}

// retryBound is the bound of a cell measured again after it hung past
// the test's short one.
const retryBound = 5 * time.Second

// remeasure measures r's cell once more, within bound, with the test's
// other settings.
func remeasure(t *testing.T, r row, bound time.Duration) row {
	t.Helper()
	vi := slices.IndexFunc(runners.All, func(v runners.Variant) bool { return v.Name == r.Variant })
	es := envs()
	ei := slices.IndexFunc(es, func(e env) bool { return e.name == r.Env })
	if vi < 0 || ei < 0 {
		t.Fatalf("remeasure %s in %s: no such variant or environment", r.Variant, r.Env)
	}
	again := row{Variant: r.Variant, Env: r.Env}
	again.summarize([]sample{measure(runners.All[vi], es[ei], bound, 20*time.Second, exectest.SettleTime(200*time.Millisecond))}, bound)
	return again
}

func TestMatrixAgreesWithTheFacts(t *testing.T) {
	var names []string
	for _, v := range runners.All {
		names = append(names, v.Name)
	}
	if !slices.Equal(names, columns) {
		t.Fatalf("variants: got %q, want want's columns %q", names, columns)
	}
	envWhy := map[string]string{}
	for _, e := range envs() {
		envWhy[e.name] = e.unavailable()
		if len(want[e.name]) != len(columns) {
			t.Fatalf("want[%q]: got %d verdicts, want one per variant (%d)", e.name, len(want[e.name]), len(columns))
		}
	}
	// Six cells at a time, and leaks looked for a short while: the
	// verdicts, not the timings, are under test here, and flakehunt runs
	// this test fifty times under load.
	const bound = 500 * time.Millisecond
	rows := measureCells(bound, 20*time.Second, 1, 6, func(int, int) {}, exectest.SettleTime(200*time.Millisecond))
	if len(rows) != 81 || len(envWhy) != len(want) {
		t.Fatalf("rows: got %d in %d environments, want 81 (9 variants x 9 environments, as in want)", len(rows), len(envWhy))
	}
	strict, err := strictOn()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		w := want[r.Env][slices.Index(columns, r.Variant)]
		if r.Verdict == "UNAVAILABLE" {
			// Under EXECTEST_STRICT=1 no cell may go unmeasured for want
			// of something the host can install (bubblewrap, bash,
			// setsid): strict exists to make sure none is missing. A
			// variant that needs a cgroup of its own (Contain) is another
			// matter: whether the test may make one is the user's rights,
			// and CI runs the suite as nobody on purpose, where the
			// reason is the fact to report (cancelpolicy's own tests
			// check that error). As root, though, a cgroup can be made
			// wherever cgroup v2 is: then the column must be measured.
			switch {
			case r.Why == "":
				t.Errorf("%s in %s: got UNAVAILABLE without a reason, want %s or a reason", r.Variant, r.Env, w)
			case strings.HasPrefix(r.Why, portableNoPIDNamespace), strings.HasPrefix(r.Why, onWindows):
				// Nor can Windows have what it lacks: no sessions,
				// process groups, signal dispositions or bubblewrap.
				// Forced on Linux, the portable mode is as blind there as
				// on macOS: a fact of the mode, not a missing program.
			case strict && (envWhy[r.Env] != "" || os.Geteuid() == 0):
				t.Errorf("%s in %s: got UNAVAILABLE (%s), want %s (EXECTEST_STRICT=1)", r.Variant, r.Env, r.Why, w)
			}
			continue
		}
		if w == P && r.Verdict == F && r.Hung {
			// A run that must return in time hung past a 500ms bound that
			// load can break (a SIGTERM's grace, then a PID namespace's
			// teardown on a CPU shared with thirty): measured again with
			// a bound load does not break, a stop that works returns, and
			// a fixture nobody stopped outlives it too (its lifetime is 20s).
			again := remeasure(t, r, retryBound)
			t.Logf("%s in %s: got %s (%s), want %s; measured again within %v: %s (%s)", r.Variant, r.Env, r.Verdict, r.Why, w, retryBound, again.Verdict, again.Why)
			r = again
		}
		switch {
		case r.Verdict == w || w == R && (r.Verdict == P || r.Verdict == F):
		case w == P && lateDeathSignal(r):
			t.Logf("%s in %s: got %s (%s), want %s, but every failing run found the sandbox's init outliving bwrap: its --die-with-parent was armed too late (containers/bubblewrap#633), and the failure is right", r.Variant, r.Env, r.Verdict, r.Why, w)
		default:
			t.Errorf("%s in %s: got %s (%s), want %s", r.Variant, r.Env, r.Verdict, r.Why, w)
		}
		// Every process a cell names is the fixture's: one named by
		// unknownRole means exectest's words for roles changed, and
		// roles.go no longer counts those processes as the fixture's.
		if (r.Hung || r.Survivors > 0) && strings.Contains(r.Why, "the "+unknownRole.noun+" (") {
			t.Errorf("%s in %s: got %q, want every process named by its role (see roles.go)", r.Variant, r.Env, r.Why)
		}
		switch {
		case w == F && r.Variant == "WaitDelay only" && (r.Hung || r.Survivors == 0):
			t.Errorf("%s in %s: got hung %v, %d survivors, want a return in time and a survivor", r.Variant, r.Env, r.Hung, r.Survivors)
		case w == F && r.Variant == "abandoning select-on-ctx" && (r.Hung || r.Goroutines == 0 || r.Survivors == 0):
			t.Errorf("%s in %s: got hung %v, %d goroutines, %d survivors, want a prompt return that leaks both", r.Variant, r.Env, r.Hung, r.Goroutines, r.Survivors)
		case w == F && strings.HasPrefix(r.Variant, "default") && !r.Hung:
			t.Errorf("%s in %s: got no hang, want a hang to the bound", r.Variant, r.Env)
		case r.Variant == "cancelpolicy.Run + Graceful" && r.Env == "TERM-ignoring descendant" && r.ElapsedMS < 200:
			// A return before the grace would mean that the SIGTERM
			// stopped the tree: the descendant did not ignore it, and
			// the row tests nothing.
			t.Errorf("%s in %s: got a return %.2f ms after the cancel, want one after the 200ms grace (SIGTERM ignored, SIGKILL after)", r.Variant, r.Env, r.ElapsedMS)
		}
	}
	var b bytes.Buffer
	if err := writeJSON(&b, describeMachine(bound, 1), rows); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Machine machine `json:"machine"`
		Rows    []row   `json:"rows"`
	}
	if err := json.Unmarshal(b.Bytes(), &parsed); err != nil || len(parsed.Rows) != len(rows) || parsed.Machine.CPUs == 0 {
		t.Errorf("-format json: got %d rows, machine %+v, err %v, want %d rows and the machine", len(parsed.Rows), parsed.Machine, err, len(rows))
	}
	b.Reset()
	if err := writeShapes(&b, describeMachine(bound, 1), rows); err != nil {
		t.Fatal(err)
	}
	// The machine line, a blank line, the header, its rule and one line
	// per shape; then the reasons of unavailable cells, if any.
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 4+len(shapeRows) || !strings.Contains(lines[2], fixColumns[len(fixColumns)-1].label) {
		t.Fatalf("-format shapes: got\n%s\nwant a row per shape and a column per fix", b.String())
	}
	for i, s := range shapeRows {
		if got := strings.Count(lines[4+i], "|"); !strings.HasPrefix(lines[4+i], "| "+s.label+" |") || got != 2+len(fixColumns) {
			t.Errorf("-format shapes: row %d: got %q, want %s and %d cells", i, lines[4+i], s.label, len(fixColumns))
		}
	}
}

func TestUnavailableSaysWhy(t *testing.T) {
	// A folder that does not exist: nothing is on PATH. (Not t.TempDir,
	// whose removal fails under Wine 8, where this test runs too.)
	t.Setenv("PATH", filepath.Join(os.TempDir(), "exectest-no-such-folder"))
	if got := bwrapUnavailable(); !strings.Contains(got, "bubblewrap not installed") {
		t.Errorf("bwrap off PATH: got %q, want it to say bubblewrap is not installed", got)
	}
	if got := needs("bash")(); !strings.Contains(got, "the shape needs bash(1)") {
		t.Errorf("bash off PATH: got %q, want it to say the shape needs bash", got)
	}
}

// A cell that should pass is excused only where every failing run found
// the sandbox's init outliving bwrap, the upstream race, and no run did
// anything else.
func TestLateDeathSignalExcusesOnlyTheRace(t *testing.T) {
	for _, c := range []struct {
		name string
		r    row
		want bool
	}{
		{"failed, init outlived bwrap", row{Runs: 1, Verdicts: map[string]int{F: 1}, OrphanedInits: 1}, true},
		{"failed and passed, each failure the race", row{Runs: 3, Verdicts: map[string]int{F: 1, P: 2}, OrphanedInits: 1}, true},
		{"failed, no init named", row{Runs: 1, Verdicts: map[string]int{F: 1}}, false},
		{"two failures, one the race", row{Runs: 2, Verdicts: map[string]int{F: 2}, OrphanedInits: 1}, false},
		{"a failure the race, a skip", row{Runs: 2, Verdicts: map[string]int{F: 1, "SKIP": 1}, OrphanedInits: 1}, false},
		{"passed", row{Runs: 1, Verdicts: map[string]int{P: 1}}, false},
	} {
		if got := lateDeathSignal(c.r); got != c.want {
			t.Errorf("lateDeathSignal, %s: got %v, want %v", c.name, got, c.want)
		}
	}
	var r row
	r.summarize([]sample{{verdict: F, orphanedInits: 1}, {verdict: P}}, time.Second)
	if !lateDeathSignal(r) {
		t.Errorf("lateDeathSignal of a row summarized from a run whose sandbox's init outlived bwrap and a pass: got false (row %+v), want true", r)
	}
}
