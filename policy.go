package exectest

import (
	"errors"
	"os/exec"
	"strings"

	"github.com/exectest/exectest/cancelpolicy"
)

// ApplyCancelPolicy makes cancelling cmd's context stop the whole process
// tree that cmd starts, in bounded time:
//
//   - the child runs in a process group of its own (Setpgid, replacing any
//     Pgid; with Setsid the session's group serves instead);
//   - Cancel sends SIGKILL to that group; a group already gone counts as
//     done ([os.ErrProcessDone]), and a group id of 0 or 1 or the caller's
//     own is never signalled (only the child is killed then);
//   - WaitDelay (default 2s) is the backstop for a
//     descendant that left the group (setsid): Wait stops waiting for it
//     and closes the pipes, and returns the command's own error (or
//     [exec.ErrWaitDelay] if the command had otherwise succeeded). The
//     escaped descendant still runs: that is a leak, and a check with
//     [Escaping] reports it.
//
// cmd must come from [exec.CommandContext]; otherwise Start reports that a
// Cancel was set without a context. Call it before Start. On bad input (a
// nil cmd, an option out of range) it changes nothing and returns an error
// saying what was wrong.
//
// It is [cancelpolicy.Apply], kept here for the toolkit's callers:
// production code calls [cancelpolicy] directly, which links neither
// testing nor this toolkit, builds on the BSDs, macOS and Windows, and
// whose [cancelpolicy.Run] also stops the launcher shape (a direct child
// that exits at once and leaves its work running), which a Cancel cannot
// reach.
//
// A terminal on stdin: the child's group is no longer the terminal's
// foreground group, so Ctrl-C reaches the caller and not the child. This is
// deliberate: a tree that can be killed as a whole is worth more than one
// the terminal can interrupt. A caller that wants Ctrl-C to stop the child
// turns SIGINT into a cancel ([os/signal.NotifyContext]), which kills the
// whole group.
func ApplyCancelPolicy(cmd *exec.Cmd, opts ...PolicyOption) error {
	if cmd == nil {
		return errors.New("exectest.ApplyCancelPolicy: cmd: got nil, want an *exec.Cmd from exec.CommandContext")
	}
	cfg := policyConfig{waitDelay: cmd.WaitDelay}
	if cfg.waitDelay <= 0 {
		cfg.waitDelay = defaultWaitDelay
	}
	for _, o := range opts {
		if o != nil {
			o.applyPolicy(&cfg)
		}
	}
	if len(cfg.errs) > 0 {
		return errors.New(strings.Join(cfg.errs, "\n"))
	}
	return cancelpolicy.Apply(cmd, cancelpolicy.WaitDelay(cfg.waitDelay))
}
