//go:build unix

package cancelpolicy_test

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// Bad input is an error that says what was wrong, and leaves the command
// as it was: the policy runs in production code, where nothing else would
// report it.
func TestBadInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if err := cancelpolicy.Apply(nil); err == nil || !strings.Contains(err.Error(), "cmd: got nil") {
		t.Errorf("Apply(nil): got %v, want an error saying cmd is nil", err)
	}
	//lint:ignore SA1012 a nil context is the bad input under test
	if _, err := cancelpolicy.Start(nil, exec.Command("/bin/true")); err == nil || !strings.Contains(err.Error(), "ctx: got nil") {
		t.Errorf("Start(nil ctx): got %v, want an error saying ctx is nil", err)
	}
	for name, c := range map[string]struct {
		prepare func(*exec.Cmd)
		opts    []cancelpolicy.Option
		want    string
	}{
		"zero wait delay":       {nil, []cancelpolicy.Option{cancelpolicy.WaitDelay(0)}, "cancelpolicy.WaitDelay: got 0s, want > 0"},
		"negative wait delay":   {nil, []cancelpolicy.Option{cancelpolicy.WaitDelay(time.Second), cancelpolicy.WaitDelay(-time.Second)}, "cancelpolicy.WaitDelay: got -1s, want > 0"},
		"nil option":            {nil, []cancelpolicy.Option{nil}, "option: got nil"},
		"graceful with sigkill": {nil, []cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGKILL, time.Second)}, "cancelpolicy.Graceful: signal: got killed, want a syscall.Signal other than SIGKILL"},
		"graceful nil signal":   {nil, []cancelpolicy.Option{cancelpolicy.Graceful(nil, time.Second)}, "cancelpolicy.Graceful: signal: got <nil>"},
		"graceful zero grace":   {nil, []cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGTERM, 0)}, "cancelpolicy.Graceful: grace: got 0s, want > 0"},
		"wait delay within grace": {nil, []cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGTERM, 2*time.Second), cancelpolicy.WaitDelay(time.Second)},
			"cancelpolicy: WaitDelay 1s must exceed the grace 2s of Graceful"},
		"own wait delay within grace": {func(c *exec.Cmd) { c.WaitDelay = time.Second }, []cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGTERM, 2*time.Second)},
			"cancelpolicy: WaitDelay 1s must exceed the grace 2s of Graceful"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, entry := range []string{"Apply", "Start"} {
				cmd := exec.CommandContext(ctx, "/bin/true")
				if c.prepare != nil {
					c.prepare(cmd)
				}
				before := cmd.WaitDelay
				var err error
				if entry == "Apply" {
					err = cancelpolicy.Apply(cmd, c.opts...)
				} else {
					_, err = cancelpolicy.Start(ctx, cmd, c.opts...)
				}
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: got %v, want an error containing %q", entry, err, c.want)
				}
				if cmd.SysProcAttr != nil || cmd.WaitDelay != before || cmd.Process != nil {
					t.Errorf("%s: cmd after bad input: got SysProcAttr %+v, WaitDelay %v, started %v; want them unchanged (nil, %v, false)", entry, cmd.SysProcAttr, cmd.WaitDelay, cmd.Process != nil, before)
				}
			}
		})
	}
	t.Run("already started", func(t *testing.T) {
		cmd := exec.CommandContext(ctx, "/bin/true")
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		if err := cancelpolicy.Apply(cmd); err == nil || !strings.Contains(err.Error(), "already started") {
			t.Errorf("Apply after Start: got %v, want an error saying the command already started", err)
		}
	})
}

func TestSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name          string
		prepare       func(*exec.Cmd)
		opts          []cancelpolicy.Option
		wantSetpgid   bool
		wantWaitDelay time.Duration
	}{
		{"defaults", func(*exec.Cmd) {}, nil, true, cancelpolicy.DefaultWaitDelay},
		{"wait delay option", func(*exec.Cmd) {}, []cancelpolicy.Option{cancelpolicy.WaitDelay(time.Second)}, true, time.Second},
		{"keeps the command's wait delay", func(c *exec.Cmd) { c.WaitDelay = 3 * time.Second }, nil, true, 3 * time.Second},
		{"graceful extends the default", func(*exec.Cmd) {}, []cancelpolicy.Option{cancelpolicy.Graceful(syscall.SIGTERM, time.Second)}, true, cancelpolicy.DefaultWaitDelay + time.Second},
		{"replaces a pgid", func(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: 42} }, nil, true, cancelpolicy.DefaultWaitDelay},
		// A session leader already leads its own group; Setpgid would fail Start.
		{"keeps setsid", func(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }, nil, false, cancelpolicy.DefaultWaitDelay},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.CommandContext(ctx, "/bin/true")
			c.prepare(cmd)
			if err := cancelpolicy.Apply(cmd, c.opts...); err != nil {
				t.Fatalf("Apply: got %v, want nil", err)
			}
			a := cmd.SysProcAttr
			if a.Setpgid != c.wantSetpgid || a.Setpgid && a.Pgid != 0 {
				t.Errorf("SysProcAttr: got Setpgid %v Pgid %d, want Setpgid %v Pgid 0", a.Setpgid, a.Pgid, c.wantSetpgid)
			}
			if cmd.WaitDelay != c.wantWaitDelay {
				t.Errorf("WaitDelay: got %v, want %v", cmd.WaitDelay, c.wantWaitDelay)
			}
			if err := cmd.Run(); err != nil {
				t.Errorf("Run under the policy: got %v, want nil", err)
			}
		})
	}
}
