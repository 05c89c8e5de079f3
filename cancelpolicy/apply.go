package cancelpolicy

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
)

// Apply sets cmd up so that a cancel of its context kills its process
// group: the child runs in a group of its own (Setpgid, replacing any Pgid;
// with Setsid the session's group serves instead), Cancel signals that
// group (SIGKILL, or as [Graceful] says), and WaitDelay ([DefaultWaitDelay]
// unless cmd or [WaitDelay] sets one) bounds the Wait when a descendant
// left the group.
//
// cmd must come from [exec.CommandContext] (otherwise Start reports a Cancel
// without a context), and Apply must be called before Start. Apply alone
// does not stop the launcher shape: use [Start] or [Run] for that. On bad
// input (a nil cmd, an invalid option) Apply changes nothing and returns an
// error.
//
// On Windows Apply sets no group (it would need to resume a child created
// suspended, after cmd.Start): Cancel terminates the direct child only, as
// os/exec's own does, and WaitDelay bounds the Wait; descendants keep
// running. Use Start or Run there to stop the tree.
func Apply(cmd *exec.Cmd, opts ...Option) error {
	g, err := prepare(cmd, opts, false)
	if err != nil {
		return err
	}
	cmd.Cancel = g.cancel
	return nil
}

// Started is a command started by [Start]; its Wait replaces the command's.
type Started struct {
	cmd     *exec.Cmd
	g       *group
	ctx     context.Context
	unwatch func() bool
}

// Start applies the policy to cmd as [Apply] does, starts it, and watches
// ctx until [Started.Wait] returns: when ctx is done, the group is killed
// also if the direct child has already exited (on Linux, and on Windows,
// where the group is a Job Object; see the package documentation for
// other systems). cmd may come from [exec.Command] or [exec.CommandContext];
// the caller must call [Started.Wait], not cmd.Wait.
func Start(ctx context.Context, cmd *exec.Cmd, opts ...Option) (*Started, error) {
	if ctx == nil {
		return nil, errors.New("cancelpolicy.Start: ctx: got nil, want a context")
	}
	g, err := prepare(cmd, opts, true)
	if err != nil {
		return nil, err
	}
	if cmd.Cancel != nil { // from exec.CommandContext: kill the group, not the child
		cmd.Cancel = g.cancel
	}
	err = cmd.Start()
	if g.cg != nil {
		g.cg.started()
	}
	if err != nil {
		g.unpin() // Windows: the job, still empty
		if g.cg != nil {
			err = join(err, g.cg.remove())
		}
		return nil, err
	}
	// os/exec's watch may already be in Cancel, on a done context.
	g.mu.Lock()
	err = g.adopt()
	g.pin(true)
	g.mu.Unlock()
	if err != nil {
		// The child never ran (Windows: it was created suspended): its
		// pipes close as it dies, and Wait returns at once.
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		g.mu.Lock()
		g.done = true
		g.unpin()
		g.mu.Unlock()
		return nil, err
	}
	return &Started{cmd: cmd, g: g, ctx: ctx, unwatch: context.AfterFunc(ctx, g.watch)}, nil
}

// Wait waits for the command as [exec.Cmd.Wait] does and stops watching
// the context; during a stop by [Graceful], it also waits until the group
// has no member left or the SIGKILL after the grace has been sent. If the context's watch killed the group after the direct
// child had exited successfully, Wait returns the context's error. With
// [Contain], Wait then kills what is left in the command's cgroup and
// removes it (on Windows, terminates what is left in its Job Object); an
// error doing so is joined to the command's.
func (s *Started) Wait() error {
	err := s.cmd.Wait()
	s.unwatch()
	interrupted, cgErr := s.g.finish()
	if interrupted && (err == nil || errors.Is(err, exec.ErrWaitDelay)) {
		err = s.ctx.Err()
	}
	return join(err, cgErr)
}

// Run runs cmd in place of cmd.Run: it starts it in a process group of its
// own (on Windows, a Job Object), waits for it, and when ctx is done kills
// that group (with [Graceful], signals it first), also after the direct
// child has exited (the launcher shape, which os/exec no longer signals).
// It returns when the command is done, as [Started.Wait] says.
//
// cmd may come from [exec.Command] or [exec.CommandContext]. ctx is what
// stops the tree. The command's own context, from exec.CommandContext,
// still counts: when it is done first, os/exec calls the command's Cancel,
// which Run has replaced with the group kill, but only while the direct
// child runs. Pass the same context to both, or build cmd with
// exec.Command and let ctx alone decide.
//
// Which entry point: Run, for a command run to its end (in place of
// cmd.Run); [Start] and then [Started.Wait], for a command that runs while
// the caller goes on (in place of cmd.Start and cmd.Wait, with pipes from
// cmd.StdoutPipe read before the Wait); [Apply], only where code that is
// not the caller's starts and waits for cmd, and then cmd must come from
// exec.CommandContext: Apply does not stop the launcher shape and cannot
// [Contain].
func Run(ctx context.Context, cmd *exec.Cmd, opts ...Option) error {
	s, err := Start(ctx, cmd, opts...)
	if err != nil {
		return err
	}
	return s.Wait()
}

// prepare checks cmd and opts and, only if all is well, sets cmd's group
// (on Windows, with started, the Job Object), WaitDelay and, with Contain
// (only where Wait is Started.Wait), cgroup.
func prepare(cmd *exec.Cmd, opts []Option, started bool) (*group, error) {
	if cmd == nil {
		return nil, errors.New("cancelpolicy: cmd: got nil, want an *exec.Cmd")
	}
	if cmd.Process != nil {
		return nil, fmt.Errorf("cancelpolicy: cmd %s: already started (pid %d), want it configured before Start", cmd.Path, cmd.Process.Pid)
	}
	var cfg config
	for _, o := range opts {
		if o == nil {
			cfg.errs = append(cfg.errs, errors.New("cancelpolicy: option: got nil, want an Option"))
			continue
		}
		o.apply(&cfg)
	}
	waitDelay := cfg.waitDelay
	if waitDelay == 0 {
		waitDelay = cmd.WaitDelay
	}
	if waitDelay <= 0 {
		waitDelay = DefaultWaitDelay + cfg.grace
	} else if cfg.grace > 0 && waitDelay <= cfg.grace {
		cfg.errs = append(cfg.errs, fmt.Errorf("cancelpolicy: WaitDelay %v must exceed the grace %v of Graceful: Wait would close the pipes before the SIGKILL", waitDelay, cfg.grace))
	}
	if cfg.contain && !started {
		cfg.errs = append(cfg.errs, errors.New("cancelpolicy.Contain: Apply cannot contain, since it has no Wait of its own in which to remove the cgroup: use Start or Run"))
	}
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, err
	}
	var cg *cgroup
	if cfg.contain {
		var err error
		if cg, err = newCgroup(cmd); err != nil {
			return nil, err
		}
	}
	g := newGroup(cmd, cfg)
	g.cg = cg
	if err := g.setGroup(started); err != nil {
		if cg != nil {
			err = join(err, cg.remove())
		}
		return nil, err
	}
	cmd.WaitDelay = waitDelay
	return g, nil
}

// join is errors.Join that returns an error alone as it is: the command's
// own error (an *exec.ExitError, ctx.Err()) must stay comparable with ==
// and a type assertion, as cmd.Wait's is, when nothing is joined to it.
func join(err, more error) error {
	if more == nil {
		return err
	}
	if err == nil {
		return more
	}
	return errors.Join(err, more)
}
