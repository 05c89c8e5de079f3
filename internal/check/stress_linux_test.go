package check_test

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/envswitch"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// stressRuns is the stress tests' size: with EXECTEST_STRESS=long, CI's
// long form (100 runs of each broken runner, 500 of each correct one);
// unset, a few; any other value fails t.
func stressRuns(t testing.TB, short, long int) int {
	t.Helper()
	isLong, err := envswitch.Long()
	switch {
	case err != nil:
		t.Fatal(err)
	case isLong:
		return long
	case testing.Short():
		return max(short/4, 2)
	}
	return short
}

// TestDetectionPower: every broken way to cancel is caught every time,
// the escaping descendant included (the cancel waits for its proof of
// life, which it sends after setsid, so the kill never lands first).
func TestDetectionPower(t *testing.T) {
	runs := stressRuns(t, 8, 100)
	cases := []struct {
		name    string
		opts    []exectest.DescendantOption
		run     systemtest.Runner
		sandbox bool
	}{
		{"default cancel", nil, systemtest.DefaultCancel, false},
		{"kill only", nil, systemtest.KillOnly, false},
		{"wait delay only", nil, systemtest.WaitDelayOnly, false},
		{"abandoning wrapper", nil, systemtest.Abandoning, false},
		{"file stdio", nil, systemtest.FileStdout, false},
		{"escaping descendant against the group kill", []exectest.DescendantOption{exectest.Escaping()}, systemtest.Fixed, false},
		{"shared-PID sandbox", nil, prefixed(sharedPID, systemtest.DefaultCancel), true},
		{"own group, default cancel", nil, ownGroupDefaultCancel, false},
		{"returns, kills the group 100ms later", nil, systemtest.LateKill(100 * time.Millisecond), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.sandbox {
				testenv.NeedBwrap(t)
			}
			caught := 0
			for i := range runs {
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, c.opts...)
					exectest.AssertCancel(tb, d, c.run(d.Argv()),
						exectest.Within(200*time.Millisecond), exectest.SettleTime(100*time.Millisecond))
				})
				if f.Verdict() == "fail" {
					caught++
				} else {
					t.Errorf("run %d: got %s, want fail:%s", i, f.Verdict(), f.Recorded())
				}
			}
			t.Logf("caught %d of %d", caught, runs)
		})
	}
}

// TestNoFalseAlarms: correct runners pass every time, in parallel, while
// burners keep every core busy (run it with -race: CI does).
func TestNoFalseAlarms(t *testing.T) {
	runs := stressRuns(t, 40, 500)
	startBurners(t, 2*runtime.NumCPU())
	const lanes = 4 // parallel subtests per runner
	pidNamespace := func(r systemtest.Runner) func(t *testing.T) systemtest.Runner {
		return func(t *testing.T) systemtest.Runner {
			systemtest.NeedSight(t, "processes in another PID namespace")
			return prefixed(testenv.NeedUnshare(t), r)
		}
	}
	for name, mk := range map[string]func(t *testing.T) systemtest.Runner{
		"group kill by hand": always(systemtest.Fixed),
		"cancelpolicy.Apply": always(systemtest.Policy),
		"cancelpolicy.Apply with the test's own stdout and stderr": always(inheritOutput),
		// Killing unshare kills the namespace: the default Cancel is right there.
		"default cancel in a PID namespace that dies with the runner": pidNamespace(systemtest.DefaultCancel),
		// With files for stdio, Wait returns before the namespace's other
		// processes are killed: they are dying, not survivors.
		"file stdout in a PID namespace that dies with the runner": pidNamespace(systemtest.FileStdout),
		// Killed on the way out: at the return the namespace's processes
		// are not signalled yet, but its init dies with unshare, which is.
		// Not bwrap --die-with-parent: its init arms the parent-death
		// signal only after the command has started
		// (containers/bubblewrap#633), so under this load a kill now and
		// then comes first, the sandbox outlives bwrap, and the check
		// rightly fails. unshare --kill-child arms it before it runs the
		// command.
		"kills a PID namespace that dies with it, returns without waiting": pidNamespace(killAndReturn),
		// The fixture stays in the runner's cgroup, which the runner kills.
		"a cgroup of the runner's own, killed on cancel": func(t *testing.T) systemtest.Runner {
			r := &cgroupRunner{parent: runnerCgroupParent(t), killCgroup: true}
			t.Cleanup(func() { r.cleanup(t) })
			return r.run
		},
	} {
		var (
			passed  atomic.Int64
			skipped string
		)
		t.Run(name, func(t *testing.T) {
			defer func() {
				if t.Skipped() {
					skipped = "skipped (go test -v shows why)"
				}
			}()
			r := mk(t)
			for lane := range lanes {
				t.Run(fmt.Sprint(lane), func(t *testing.T) {
					t.Parallel()
					for i := lane; i < runs; i += lanes {
						f := systemtest.RunFake(t, func(tb testing.TB) {
							d := exectest.NewDescendant(tb)
							exectest.AssertCancel(tb, d, r(d.Argv()))
						})
						if f.Verdict() != "pass" {
							t.Errorf("run %d under load: got %s, want pass:%s", i, f.Verdict(), f.Recorded())
							continue
						}
						passed.Add(1)
					}
				})
			}
		})
		if skipped != "" {
			t.Logf("%s: %s", name, skipped)
			continue
		}
		t.Logf("%s: passed %d of %d under %d burners", name, passed.Load(), runs, 2*runtime.NumCPU())
	}
}

// startBurners keeps n processes spinning on the CPU until the test ends,
// in a process group of their own that the cleanup kills and reaps.
func startBurners(t *testing.T, n int) {
	t.Helper()
	var cmds []*exec.Cmd
	pgid := 0
	for range n {
		cmd := exec.Command("/bin/sh", "-c", "while :; do :; done")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatalf("burner: %v", err)
		}
		if pgid == 0 {
			pgid = cmd.Process.Pid
		}
		cmds = append(cmds, cmd)
	}
	t.Cleanup(func() {
		if proc.SafeGroup(pgid) {
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
		var wg sync.WaitGroup
		for _, c := range cmds {
			wg.Go(func() { c.Wait() })
		}
		wg.Wait()
	})
}

// always is a runner that needs nothing of the test.
func always(r systemtest.Runner) func(*testing.T) systemtest.Runner {
	return func(*testing.T) systemtest.Runner { return r }
}

// killAndReturn kills the direct child on cancel and returns at once,
// leaving the Wait to a goroutine that ends a moment later.
func killAndReturn(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := exec.Command(argv[0], argv[1:]...)
		//execcheck:ignore a runner broken on purpose: the stress test's subject
		if err := cmd.Start(); err != nil {
			return err
		}
		<-ctx.Done()
		cmd.Process.Kill()
		go cmd.Wait()
		return ctx.Err()
	}
}
