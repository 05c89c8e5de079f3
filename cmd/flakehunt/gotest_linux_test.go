package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
)

// recorded is go test -json -count=2 output (go 1.26) for a module with a
// pass, a fail and a skip, a build failure and a panicking TestMain, with
// three things test2json never writes but a stream can hold: a line that
// is not JSON, JSON that is not an event, and a last event cut short.
const recorded = `{"ImportPath":"example.com/ft/bad [example.com/ft/bad.test]","Action":"build-output","Output":"# example.com/ft/bad [example.com/ft/bad.test]\n"}
{"ImportPath":"example.com/ft/bad [example.com/ft/bad.test]","Action":"build-output","Output":"bad/bad_test.go:3:28: undefined: x\n"}
{"ImportPath":"example.com/ft/bad [example.com/ft/bad.test]","Action":"build-fail"}
{"Time":"2026-12-02T14:44:39.690910873Z","Action":"start","Package":"example.com/ft/bad"}
{"Time":"2026-12-02T14:44:39.691000607Z","Action":"output","Package":"example.com/ft/bad","Output":"FAIL\texample.com/ft/bad [build failed]\n"}
{"Time":"2026-12-02T14:44:39.69100934Z","Action":"fail","Package":"example.com/ft/bad","Elapsed":0,"FailedBuild":"example.com/ft/bad [example.com/ft/bad.test]"}
{"Time":"2026-12-02T14:50:01.1Z","Action":"start","Package":"example.com/ft"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"run","Package":"example.com/ft","Test":"TestPass"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"output","Package":"example.com/ft","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"output","Package":"example.com/ft","Test":"TestPass","Output":"--- PASS: TestPass (0.01s)\n"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"pass","Package":"example.com/ft","Test":"TestPass","Elapsed":0.01}
{"Time":"2026-12-02T14:50:01.2Z","Action":"run","Package":"example.com/ft","Test":"TestFail"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"output","Package":"example.com/ft","Test":"TestFail","Output":"=== RUN   TestFail\n"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"output","Package":"example.com/ft","Test":"TestFail","Output":"    ft_test.go:6: boom\n"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"output","Package":"example.com/ft","Test":"TestFail","Output":"--- FAIL: TestFail (0.02s)\n"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"fail","Package":"example.com/ft","Test":"TestFail","Elapsed":0.02}
this line is not test2json
{"Time":"2026-12-02T14:50:01.2Z","Action":"run","Package":"example.com/ft","Test":"TestSkip"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"output","Package":"example.com/ft","Test":"TestSkip","Output":"--- SKIP: TestSkip (0.00s)\n"}
{"Time":"2026-12-02T14:50:01.2Z","Action":"skip","Package":"example.com/ft","Test":"TestSkip","Elapsed":0}
{"Action":5}
{"Time":"2026-12-02T14:50:01.3Z","Action":"run","Package":"example.com/ft","Test":"TestPass"}
{"Time":"2026-12-02T14:50:01.3Z","Action":"pass","Package":"example.com/ft","Test":"TestPass","Elapsed":0.03}
{"Time":"2026-12-02T14:50:01.3Z","Action":"run","Package":"example.com/ft","Test":"TestFail"}
{"Time":"2026-12-02T14:50:01.3Z","Action":"output","Package":"example.com/ft","Test":"TestFail","Output":"    ft_test.go:6: boom again\n"}
{"Time":"2026-12-02T14:50:01.3Z","Action":"fail","Package":"example.com/ft","Test":"TestFail","Elapsed":0.04}
{"Time":"2026-12-02T14:50:01.3Z","Action":"run","Package":"example.com/ft","Test":"TestSkip"}
{"Time":"2026-12-02T14:50:01.3Z","Action":"skip","Package":"example.com/ft","Test":"TestSkip","Elapsed":0}
{"Time":"2026-12-02T14:50:01.4Z","Action":"output","Package":"example.com/ft","Output":"FAIL\texample.com/ft\t0.2s\n"}
{"Time":"2026-12-02T14:50:01.4Z","Action":"fail","Package":"example.com/ft","Elapsed":0.2}
{"Time":"2026-12-02T14:44:39.917225569Z","Action":"start","Package":"example.com/ft/tm"}
{"Time":"2026-12-02T14:44:39.921976778Z","Action":"output","Package":"example.com/ft/tm","Output":"panic: boom in TestMain\n"}
{"Time":"2026-12-02T14:44:39.92206509Z","Action":"output","Package":"example.com/ft/tm","Output":"goroutine 1 [running]:\n"}
{"Time":"2026-12-02T14:44:39.92260871Z","Action":"output","Package":"example.com/ft/tm","Output":"FAIL\texample.com/ft/tm\t0.005s\n"}
{"Time":"2026-12-02T14:44:39.922624964Z","Action":"fail","Package":"example.com/ft/tm","Elapsed":0.005}
{"Time":"2026-12-02T14:44:40Z","Action":"run","Package":"example.com/ft/cut","Te`

func TestDecodeRecorded(t *testing.T) {
	a := newAggregator(35 * time.Millisecond)
	var stray bytes.Buffer
	if err := decodeEvents(strings.NewReader(recorded), a, &stray); err != nil {
		t.Fatalf("decodeEvents: %v", err)
	}
	if got, want := stray.String(), "flakehunt: not test2json: this line is not test2json\n"; got != want {
		t.Errorf("stray output: got %q, want %q", got, want)
	}
	rows, tot := a.summaries()
	if tot != (totals{passed: 2, failed: 4, skipped: 2, outliers: 1}) {
		t.Errorf("totals: got %+v", tot)
	}
	if len(rows) != 5 {
		t.Errorf("rows: got %d, want 5: %+v", len(rows), rows)
	}

	pass := row(t, rows, "example.com/ft", "TestPass")
	if pass.runs != 2 || pass.pass != 2 || pass.min != 10*time.Millisecond || pass.max != 30*time.Millisecond {
		t.Errorf("TestPass: got %+v", pass)
	}
	fail := row(t, rows, "example.com/ft", "TestFail")
	if fail.fail != 2 || fail.outliers != 1 || strings.Join(fail.failure, "|") != "    ft_test.go:6: boom|--- FAIL: TestFail (0.02s)" {
		t.Errorf("TestFail: got %+v", fail)
	}
	if skip := row(t, rows, "example.com/ft", "TestSkip"); skip.skip != 2 || skip.timed {
		t.Errorf("TestSkip: got %+v", skip)
	}
	build := row(t, rows, "example.com/ft/bad", packageTest)
	if build.fail != 1 || !slices0(build.failure, "bad/bad_test.go:3:28: undefined: x") {
		t.Errorf("build failure: got %+v, want the compiler's message", build)
	}
	tm := row(t, rows, "example.com/ft/tm", packageTest)
	if tm.fail != 1 || !slices0(tm.failure, "panic: boom in TestMain") {
		t.Errorf("panicking TestMain: got %+v", tm)
	}
}

func slices0(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// interruptedRun runs flakehunt on a module whose TestSlow, after
// running setup, writes its pid to a file and sleeps for a minute; it
// interrupts flakehunt once that file exists. took is from the interrupt
// to flakehunt's return; stderr is flakehunt's, go test's included.
func interruptedRun(t *testing.T, setup string) (code int, took time.Duration, stderr string) {
	t.Helper()
	dir := writeModule(t, map[string]string{"slow_test.go": `package ft

import (
	"os"
	"os/signal"
	"strconv"
	"testing"
	"time"
)

var _ = signal.Ignore

func TestQuick(t *testing.T) {}

func TestSlow(t *testing.T) {
	` + setup + `
	os.WriteFile("started", []byte(strconv.Itoa(os.Getpid())), 0o644)
	time.Sleep(60 * time.Second)
}
`})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Interrupt once the slow test has proved it runs, and only then.
	type binary struct{ pid, start int }
	pidc := make(chan binary, 1)
	var interrupted atomic.Int64 // UnixNano of the interrupt
	go func() {
		for ctx.Err() == nil {
			b, err := os.ReadFile(filepath.Join(dir, "started"))
			if p, perr := strconv.Atoi(string(b)); err == nil && perr == nil {
				// It runs its test, so its stat is the test binary's.
				st, _ := readStat(p)
				pidc <- binary{p, st.start}
				interrupted.Store(time.Now().UnixNano())
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	code = runContext(ctx, []string{"-count", "1", "-load", "1", "--", "-run", "Quick|Slow", "."}, &out, &errb)
	returned := time.Now()
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	var bin binary
	select {
	case bin = <-pidc:
	default:
		t.Fatalf("the slow test never started")
	}
	took = returned.Sub(time.Unix(0, interrupted.Load()))
	t.Logf("%v from the interrupt to flakehunt's return", took)
	if code != 130 {
		t.Errorf("exit code: got %d, want 130", code)
	}
	if !strings.Contains(errb.String(), "flakehunt: interrupted") {
		t.Errorf("stderr: no interruption message")
	}
	// The slow test died of our signal, which says nothing about it.
	if !strings.HasSuffix(out.String(), "\n1 passed, 0 failed, 0 skipped\n") {
		t.Errorf("stdout: got\n%s\nwant the quick test's pass and no failure", out.String())
	}
	// The test binary is go test's child, not ours: flakehunt signalled it
	// but cannot wait for it, and a big process killed on a loaded machine
	// takes a while to tear down. So it must end soon after: gone, or at
	// worst a zombie under an init that does not reap orphans.
	const bound = 10 * time.Second
	var last procStat
	ended := backoff.Poll(bound, time.Millisecond, 100*time.Millisecond, func() bool {
		st, ok := readStat(bin.pid)
		last = st
		return !ok || st.state == 'Z' || st.start != bin.start // a new process under the pid
	})
	if !ended {
		t.Errorf("test binary %d: still there %v after flakehunt returned from the interrupt: got state %c, want gone or a zombie", bin.pid, bound, last.state)
	}
	assertNoChildren(t)
	return code, took, errb.String()
}

// An interrupt stops go test and its test binaries with SIGINT, removes
// the burners, prints what was gathered and exits 130. SIGINT alone must
// stop go test: flakehunt says when it had to kill the group after the
// grace. The grace is long here, since a loaded machine can take seconds
// to tear go test down, and a go test deaf to SIGINT would outlive any.
func TestInterrupt(t *testing.T) {
	defer func(g time.Duration) { interruptGrace = g }(interruptGrace)
	interruptGrace = 30 * time.Second
	if _, took, stderr := interruptedRun(t, ""); strings.Contains(stderr, escalated) || took >= interruptGrace {
		t.Errorf("%v after the interrupt, flakehunt returned with stderr\n%s\nwant no kill after the %v grace: SIGINT alone stops go test", took, stderr, interruptGrace)
	}
}

// A test binary that ignores SIGINT keeps go test waiting: the group gets
// SIGKILL after the grace, and flakehunt says so.
func TestInterruptEscalates(t *testing.T) {
	if _, took, stderr := interruptedRun(t, "signal.Ignore(os.Interrupt)"); !strings.Contains(stderr, escalated) || took < interruptGrace {
		t.Errorf("%v after the interrupt, flakehunt returned with stderr\n%s\nwant the kill after the %v grace, and its message", took, stderr, interruptGrace)
	}
}
