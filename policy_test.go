//go:build unix

package exectest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
)

func TestApplyCancelPolicySettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name          string
		prepare       func(*exec.Cmd)
		opts          []exectest.PolicyOption
		wantSetpgid   bool
		wantWaitDelay time.Duration
	}{
		{"defaults", func(*exec.Cmd) {}, nil, true, 2 * time.Second},
		{"wait delay option", func(*exec.Cmd) {}, []exectest.PolicyOption{exectest.WaitDelay(time.Second)}, true, time.Second},
		{"keeps the caller's wait delay", func(c *exec.Cmd) { c.WaitDelay = 3 * time.Second }, nil, true, 3 * time.Second},
		{"replaces a pgid", func(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: 42} }, nil, true, 2 * time.Second},
		// A session leader already leads its own group; Setpgid would fail Start.
		{"keeps setsid", func(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }, nil, false, 2 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.CommandContext(ctx, "/bin/true")
			c.prepare(cmd)
			if err := exectest.ApplyCancelPolicy(cmd, c.opts...); err != nil {
				t.Fatalf("ApplyCancelPolicy: got %v, want nil", err)
			}
			a := cmd.SysProcAttr
			if a.Setpgid != c.wantSetpgid || a.Pgid != 0 && a.Setpgid {
				t.Errorf("SysProcAttr: got Setpgid %v Pgid %d, want Setpgid %v Pgid 0", a.Setpgid, a.Pgid, c.wantSetpgid)
			}
			if cmd.WaitDelay != c.wantWaitDelay {
				t.Errorf("WaitDelay: got %v, want %v", cmd.WaitDelay, c.wantWaitDelay)
			}
			if cmd.Cancel == nil {
				t.Errorf("Cancel: got nil, want the group kill")
			}
			if err := cmd.Run(); err != nil {
				t.Errorf("Run with the policy: got %v, want nil", err)
			}
		})
	}
}

func TestApplyCancelPolicyGroupGone(t *testing.T) {
	t.Parallel()
	cmd := exec.CommandContext(context.Background(), "/bin/true")
	if err := exectest.ApplyCancelPolicy(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Cancel(); !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("Cancel after the group is gone: got %v, want os.ErrProcessDone", err)
	}
}

func TestApplyCancelPolicyNeedsContext(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("/bin/true")
	if err := exectest.ApplyCancelPolicy(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err == nil {
		cmd.Wait()
		t.Errorf("Start of a Cmd without context under the policy: got nil, want os/exec's error about Cancel")
	}
}

// Bad input is an error, and leaves the command as it was: the policy runs
// in the code under test, where no testing.TB exists to report it.
func TestApplyCancelPolicyBadInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("nil cmd", func(t *testing.T) {
		if err := exectest.ApplyCancelPolicy(nil); err == nil || !strings.Contains(err.Error(), "cmd: got nil") {
			t.Errorf("ApplyCancelPolicy(nil): got %v, want an error saying cmd is nil", err)
		}
	})
	for name, c := range map[string]struct {
		opts []exectest.PolicyOption
		want string
	}{
		"zero wait delay":     {[]exectest.PolicyOption{exectest.WaitDelay(0)}, "exectest.WaitDelay: got 0s, want > 0"},
		"negative wait delay": {[]exectest.PolicyOption{exectest.WaitDelay(time.Second), exectest.WaitDelay(-time.Second)}, "exectest.WaitDelay: got -1s, want > 0"},
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.CommandContext(ctx, "/bin/true")
			err := exectest.ApplyCancelPolicy(cmd, c.opts...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ApplyCancelPolicy: got %v, want an error containing %q", err, c.want)
			}
			if cmd.SysProcAttr != nil || cmd.WaitDelay != 0 {
				t.Errorf("cmd after bad input: got SysProcAttr %+v, WaitDelay %v, want them unchanged (nil, 0)", cmd.SysProcAttr, cmd.WaitDelay)
			}
		})
	}
}
