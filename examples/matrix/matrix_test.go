package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
)

func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

// want is what each cell must find: the facts of the problem. A cell
// that cannot run here must say so (UNAVAILABLE), never pass.
var want = map[string]map[string]string{
	"direct":                                {"default Cancel": "FAIL", "Cancel = Process.Kill": "FAIL", "WaitDelay only": "FAIL", "Setpgid + group kill + WaitDelay": "PASS", "ApplyCancelPolicy": "PASS", "abandoning select-on-ctx": "FAIL"},
	"bwrap, shared PID namespace":           {"default Cancel": "FAIL", "Cancel = Process.Kill": "FAIL", "WaitDelay only": "FAIL", "Setpgid + group kill + WaitDelay": "PASS", "ApplyCancelPolicy": "PASS", "abandoning select-on-ctx": "FAIL"},
	"bwrap --unshare-pid --die-with-parent": {"default Cancel": "PASS", "Cancel = Process.Kill": "PASS", "WaitDelay only": "PASS", "Setpgid + group kill + WaitDelay": "PASS", "ApplyCancelPolicy": "PASS", "abandoning select-on-ctx": "PASS"},
	"escaping (setsid) descendant":          {"default Cancel": "FAIL", "Cancel = Process.Kill": "FAIL", "WaitDelay only": "FAIL", "Setpgid + group kill + WaitDelay": "FAIL", "ApplyCancelPolicy": "FAIL", "abandoning select-on-ctx": "FAIL"},
	"hermetic fixture":                      {"default Cancel": "FAIL", "Cancel = Process.Kill": "FAIL", "WaitDelay only": "FAIL", "Setpgid + group kill + WaitDelay": "PASS", "ApplyCancelPolicy": "PASS", "abandoning select-on-ctx": "FAIL"},
}

func TestMatrixAgreesWithTheFacts(t *testing.T) {
	// Six cells at a time, and leaks looked for a short while: the
	// verdicts, not the timings, are under test here, and flakehunt runs
	// this test fifty times under load.
	const bound = 500 * time.Millisecond
	rows := measureCells(bound, 20*time.Second, 1, 6, func(int, int) {}, exectest.SettleTime(200*time.Millisecond))
	if len(rows) != 30 {
		t.Fatalf("rows: got %d, want 30 (6 variants x 5 environments)", len(rows))
	}
	for _, r := range rows {
		w := want[r.Env][r.Variant]
		if r.Verdict == "UNAVAILABLE" {
			if os.Getenv("EXECTEST_STRICT") == "1" || r.Why == "" {
				t.Errorf("%s in %s: got UNAVAILABLE (%s), want %s", r.Variant, r.Env, r.Why, w)
			}
			continue
		}
		if r.Verdict != w {
			t.Errorf("%s in %s: got %s (%s), want %s", r.Variant, r.Env, r.Verdict, r.Why, w)
		}
		switch {
		case w == "FAIL" && r.Variant == "WaitDelay only" && (r.Hung || r.Survivors == 0):
			t.Errorf("%s in %s: got hung %v, %d survivors, want a return in time and a survivor", r.Variant, r.Env, r.Hung, r.Survivors)
		case w == "FAIL" && r.Variant == "abandoning select-on-ctx" && (r.Hung || r.Goroutines == 0 || r.Survivors == 0):
			t.Errorf("%s in %s: got hung %v, %d goroutines, %d survivors, want a prompt return that leaks both", r.Variant, r.Env, r.Hung, r.Goroutines, r.Survivors)
		case w == "FAIL" && strings.HasPrefix(r.Variant, "default") && r.Env != "escaping (setsid) descendant" && !r.Hung:
			t.Errorf("%s in %s: got no hang, want a hang to the bound", r.Variant, r.Env)
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
	if err := json.Unmarshal(b.Bytes(), &parsed); err != nil || len(parsed.Rows) != 30 || parsed.Machine.CPUs == 0 {
		t.Errorf("-format json: got %d rows, machine %+v, err %v, want 30 rows and the machine", len(parsed.Rows), parsed.Machine, err)
	}
}

func TestUnavailableSaysWhy(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no bwrap on it
	if got := bwrapUnavailable(); !strings.Contains(got, "bubblewrap not installed") {
		t.Errorf("bwrap off PATH: got %q, want it to say bubblewrap is not installed", got)
	}
}
