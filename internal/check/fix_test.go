//go:build unix

package check_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// ownGroupDefaultCancel puts the command in a group of its own but keeps
// the default Cancel, which kills the child alone.
func ownGroupDefaultCancel(argv []string) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := systemtest.Command(ctx, argv)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		//execcheck:ignore a runner broken on purpose: the diagnosis tests need its failure
		return cmd.Run()
	}
}

// A build makes the command as the code under test does: from
// exec.Command, with no context for os/exec to watch, or from
// exec.CommandContext. Every fix line must hold for both.
type build struct {
	name string
	cmd  func(ctx context.Context, argv []string) *exec.Cmd
	// noPipe leaves the command's stdio nil (/dev/null): Wait then
	// returns once the direct child is gone, whoever else runs on.
	noPipe bool
}

// command makes the command with its output in a bytes.Buffer (os/exec
// copies it through a pipe, which a descendant can hold), or, with
// noPipe, in no pipe at all.
func (b build) command(ctx context.Context, argv []string) *exec.Cmd {
	cmd := b.cmd(ctx, argv)
	if !b.noPipe {
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
	}
	return cmd
}

var builds = []build{
	{name: "exec.Command", cmd: func(_ context.Context, argv []string) *exec.Cmd { return exec.Command(argv[0], argv[1:]...) }},
	{name: "exec.CommandContext", cmd: func(ctx context.Context, argv []string) *exec.Cmd {
		return exec.CommandContext(ctx, argv[0], argv[1:]...)
	}},
}

// startStopping starts cmd so that stop runs when ctx is done, as code
// does with each build: as the command's Cancel (exec.CommandContext), or
// from a context.AfterFunc armed once Start has set cmd.Process
// (exec.Command). disarm stops the AfterFunc.
func startStopping(ctx context.Context, cmd *exec.Cmd, stop func() error) (disarm func(), err error) {
	if cmd.Cancel != nil {
		cmd.Cancel = stop
		return func() {}, cmd.Start()
	}
	if err := cmd.Start(); err != nil {
		return func() {}, err
	}
	after := context.AfterFunc(ctx, func() { stop() })
	return func() { after() }, nil
}

// runStopping runs cmd to its end, calling stop when ctx is done.
func runStopping(ctx context.Context, cmd *exec.Cmd, stop func() error) error {
	disarm, err := startStopping(ctx, cmd, stop)
	if err != nil {
		return err
	}
	defer disarm()
	return cmd.Wait()
}

// killGroup kills cmd's process group, its own (Setpgid).
func killGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	return syscall.Kill(-cmd.Process.Pid, sig)
}

// ownGroup puts cmd in a process group of its own.
func ownGroup(cmd *exec.Cmd) *exec.Cmd {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// reaper closes, at the end of a test, the write ends a broken runner
// kept, then waits for the commands it never waited for
// (GODEBUG=execwait=2 panics on a Cmd never waited for).
type reaper struct {
	mu    sync.Mutex
	files []*os.File
	cmds  []*exec.Cmd
}

func (r *reaper) add(cmd *exec.Cmd) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cmds = append(r.cmds, cmd)
}

func (r *reaper) keep(f *os.File) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files = append(r.files, f)
}

func (r *reaper) reap() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, f := range r.files {
		f.Close()
	}
	for _, cmd := range r.cmds {
		cmd.Wait()
	}
	r.files, r.cmds = nil, nil
}

// A runnerOf is a runner written for one build; the reaper takes the
// commands it leaves unwaited.
type runnerOf func(b build, d *exectest.Descendant, r *reaper) func(context.Context) error

// A fixRow is a runner that fails with a fix line, and the same runner
// with exactly the change that line names.
type fixRow struct {
	name string
	opts []exectest.DescendantOption // the fixture's, for both runners
	// builds that give this fix line; nil: both.
	builds []string
	// vacuous rows skip, or fail under EXECTEST_STRICT=1; others fail.
	vacuous bool
	// need skips the row where it cannot run.
	need   func(t *testing.T)
	broken runnerOf
	// want is every fix line the broken runner's failure has, exactly.
	want func(d *exectest.Descendant) []string
	// fixed is broken with the change applied; fixedOpts, if not nil,
	// replace opts where the change is the fixture's (exectest.Hermetic).
	fixed     runnerOf
	fixedOpts []exectest.DescendantOption
}

// lines returns want as a fixRow.want.
func lines(want ...string) func(*exectest.Descendant) []string {
	return func(*exectest.Descendant) []string { return want }
}

// killsChild stops the command by killing its direct child only.
func killsChild(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := b.command(ctx, d.Argv())
		return runStopping(ctx, cmd, func() error { return cmd.Process.Kill() })
	}
}

// runs is the fix that most lines name: cancelpolicy.Run(ctx, cmd) in
// place of cmd.Start(), the kill and cmd.Wait(). setup is what the broken
// runner did to the command before (its group), kept as it was.
func runs(setup func(*exec.Cmd) *exec.Cmd, opts ...cancelpolicy.Option) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := setup(b.command(ctx, d.Argv()))
			return cancelpolicy.Run(ctx, cmd, opts...)
		}
	}
}

// starts is runs for a runner that calls cmd.Start() and cmd.Wait()
// itself, as the fix line then says: cancelpolicy.Start(ctx, cmd) in
// place of cmd.Start(), and the Wait of what it returns in place of the
// kill and cmd.Wait().
func starts(setup func(*exec.Cmd) *exec.Cmd, opts ...cancelpolicy.Option) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			s, err := cancelpolicy.Start(ctx, setup(b.command(ctx, d.Argv())), opts...)
			if err != nil {
				return err
			}
			return s.Wait()
		}
	}
}

// S is a fix line as a check prints it where run calls cmd.Start() and
// cmd.Wait() itself (see starts).
func S(line string) string { return check.ForRunCall(line, "Start") }

func asIs(cmd *exec.Cmd) *exec.Cmd { return cmd }

// outputs runs the command with call, cmd.Output() or
// cmd.CombinedOutput(), whose cancel kills the child alone (the default
// Cancel of exec.CommandContext), and uses what it returned.
func outputs(call string) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := b.cmd(ctx, d.Argv())
			var (
				got []byte
				err error
			)
			if call == "CombinedOutput" {
				//execcheck:ignore a runner broken on purpose: the diagnosis tests need its failure
				got, err = cmd.CombinedOutput()
			} else {
				//execcheck:ignore a runner broken on purpose: the diagnosis tests need its failure
				got, err = cmd.Output()
			}
			return outputErr(got, err)
		}
	}
}

// readsPipe reads the command's StdoutPipe to its end between cmd.Start()
// and cmd.Wait(), the cancel killing the child alone; fixed, it is the
// fix line's change: cancelpolicy.Start in place of cmd.Start(), and the
// Wait of what it returns in place of the kill and cmd.Wait(), the read
// between them as before. cancelpolicy.Run in place of all three would
// leave the read a closed pipe.
func readsPipe(fixed bool) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := b.cmd(ctx, d.Argv())
			pipe, err := cmd.StdoutPipe()
			if err != nil {
				return err
			}
			if fixed {
				s, err := cancelpolicy.Start(ctx, cmd)
				if err != nil {
					return err
				}
				out, err := io.ReadAll(pipe)
				return outputErr(out, errors.Join(err, s.Wait()))
			}
			disarm, err := startStopping(ctx, cmd, func() error { return cmd.Process.Kill() })
			if err != nil {
				return err
			}
			defer disarm()
			out, err := io.ReadAll(pipe)
			return outputErr(out, errors.Join(err, cmd.Wait()))
		}
	}
}

// writesStdin writes to the command's StdinPipe between cmd.Start() and
// cmd.Wait(), the cancel killing the child alone; fixed, it is the fix
// line's change, as for readsPipe. cancelpolicy.Run in place of the
// Start and the Wait would write after the command ended.
func writesStdin(fixed bool) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := b.command(ctx, d.Argv())
			stdin, err := cmd.StdinPipe()
			if err != nil {
				return err
			}
			write := func() error {
				_, err := io.WriteString(stdin, "input\n")
				return errors.Join(err, stdin.Close())
			}
			if fixed {
				s, err := cancelpolicy.Start(ctx, cmd)
				if err != nil {
					return err
				}
				werr := write()
				return errors.Join(werr, s.Wait())
			}
			disarm, err := startStopping(ctx, cmd, func() error { return cmd.Process.Kill() })
			if err != nil {
				return err
			}
			defer disarm()
			werr := write()
			return errors.Join(werr, cmd.Wait())
		}
	}
}

// runsKeeping is the fix line's change to outputs(call): a bytes.Buffer
// set as cmd.Stdout (and as cmd.Stderr for CombinedOutput) before
// cancelpolicy.Run, in place of call, and its Bytes() the output.
func runsKeeping(call string) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := b.cmd(ctx, d.Argv())
			var out bytes.Buffer
			cmd.Stdout = &out
			if call == "CombinedOutput" {
				cmd.Stderr = &out
			}
			err := cancelpolicy.Run(ctx, cmd)
			return outputErr(out.Bytes(), err)
		}
	}
}

// outputErr is err, or an error where the fixture wrote output: it
// writes none, and a runner that returned it would be using it.
func outputErr(out []byte, err error) error {
	if len(out) > 0 {
		return errors.Join(err, fmt.Errorf("output: got %q, want none", out))
	}
	return err
}

// withoutPipe is r with the command's stdio nil (/dev/null).
func withoutPipe(r runnerOf) runnerOf {
	return func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
		b.noPipe = true
		return r(b, d, rp)
	}
}

// signalsGroup stops the command by sending sig to its group, and only
// that (pulumi's TerminateProcessGroup sends SIGINT, and returns once the
// direct child is gone; testscript sends SIGQUIT).
func signalsGroup(sig syscall.Signal) runnerOf {
	return func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := ownGroup(b.command(ctx, d.Argv()))
			cmd.Dir = os.TempDir() // a SIGQUIT may dump core in the working directory
			return runStopping(ctx, cmd, func() error { return killGroup(cmd, sig) })
		}
	}
}

// gracefully is the fix for an ignored signal: cancelpolicy.Start with
// Graceful(sig, grace), grace half the default bound of 1s, and the Wait
// of what it returns, as the line says to a runner that starts and waits
// for the command itself.
func gracefully(sig syscall.Signal) runnerOf {
	return func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
		return starts(func(cmd *exec.Cmd) *exec.Cmd {
			cmd = ownGroup(cmd)
			cmd.Dir = os.TempDir()
			return cmd
		}, cancelpolicy.Graceful(sig, 500*time.Millisecond))(b, d, rp)
	}
}

// killsGroupWhileChildRuns kills the group only while the direct child
// runs, as careful code does (a reaped leader's group id may be reused):
// it misses the launcher shape, whose child exits at once.
func killsGroupWhileChildRuns(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := ownGroup(b.command(ctx, d.Argv()))
		return runStopping(ctx, cmd, func() error {
			if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
				return err // reaped: the group id is no longer the command's
			}
			return killGroup(cmd, syscall.SIGKILL)
		})
	}
}

// killsGroup kills the command's group on cancel: a descendant that left
// the group escapes it.
func killsGroup(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := ownGroup(b.command(ctx, d.Argv()))
		return runStopping(ctx, cmd, func() error { return killGroup(cmd, syscall.SIGKILL) })
	}
}

// inSandbox runs r's command after prefix: a PID namespace, a root.
func inSandbox(prefix []string, r runnerOf) runnerOf {
	return func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
		cmd := b.cmd
		b.cmd = func(ctx context.Context, argv []string) *exec.Cmd {
			return cmd(ctx, append(slices.Clone(prefix), argv...))
		}
		return r(b, d, rp)
	}
}

// killsLater returns at the cancel and kills the group 100ms later.
func killsLater(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := ownGroup(b.command(ctx, d.Argv()))
		//execcheck:ignore a runner broken on purpose: it kills the group only after returning
		if err := cmd.Start(); err != nil {
			return err
		}
		<-ctx.Done()
		go func() {
			time.Sleep(100 * time.Millisecond)
			killGroup(cmd, syscall.SIGKILL)
			cmd.Wait()
		}()
		return ctx.Err()
	}
}

// startsOnly returns once the command started.
func startsOnly(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := b.command(ctx, d.Argv())
		//execcheck:ignore a runner broken on purpose: it returns once the command started
		err := cmd.Start()
		if err == nil {
			rp.add(cmd)
		}
		return err
	}
}

// abandons gives up on the command at the cancel: it kills the direct
// child and returns without waiting for the Wait it started.
func abandons(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
	return func(ctx context.Context) error {
		cmd := b.command(ctx, d.Argv())
		//execcheck:ignore a runner broken on purpose: it abandons the command at the cancel
		if err := cmd.Start(); err != nil {
			return err
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			cmd.Process.Kill()
			return ctx.Err()
		}
	}
}

// unwaited reads the command's output through StdoutPipe, kills the group
// at the cancel and returns without cmd.Wait: the pipe's read end stays
// open, and with exec.CommandContext os/exec's watchCtx goroutine runs on.
// withWait is the same with the Wait that the fix lines name.
func unwaited(withWait bool) runnerOf {
	return func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			cmd := ownGroup(b.cmd(ctx, d.Argv()))
			if _, err := cmd.StdoutPipe(); err != nil {
				return err
			}
			kill := func() error { return killGroup(cmd, syscall.SIGKILL) }
			disarm, err := startStopping(ctx, cmd, kill)
			if err != nil {
				return err
			}
			defer disarm()
			<-ctx.Done()
			kill() // now, not only in os/exec's goroutine: nothing runs on when run returns
			if withWait {
				cmd.Wait()
			} else {
				rp.add(cmd)
			}
			return ctx.Err()
		}
	}
}

// keepsWriteEnd gives the command the write end of a pipe run made, and
// reads the read end to EOF; closes says whether it closes its own copy
// of the write end after Start, as the fix line says. It runs the command
// with cancelpolicy.Start: the group is killed, and still the read never
// ends while the test process holds the write end.
func keepsWriteEnd(closes bool) runnerOf {
	return func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			r, w, err := os.Pipe()
			if err != nil {
				return err
			}
			defer r.Close()
			cmd := b.cmd(ctx, d.Argv())
			cmd.Stdout, cmd.Stderr = w, w
			s, err := cancelpolicy.Start(ctx, cmd)
			if closes {
				w.Close()
			} else {
				rp.keep(w) // the bug: no w.Close() here
			}
			if err != nil {
				return err
			}
			io.Copy(io.Discard, r)
			return s.Wait()
		}
	}
}

// neverStarts forgets to run the command.
func neverStarts(build, *exectest.Descendant, *reaper) func(context.Context) error {
	return func(context.Context) error { return nil }
}

// fixLine kinds not exported as constants are spelled here, as the check
// prints them: each is pinned by a row below.
func fixLines(report string) []string {
	var out []string
	for line := range strings.Lines(report) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "fix: ") && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// fixRows are the fix lines' claims: each broken runner fails (or, for
// where the command runs, skips as vacuous) with exactly the fix lines
// want says, and the runner with exactly that change passes. The table in
// docs/failures.md lists them.
func fixRows() []fixRow {
	F := check.FixLines
	return []fixRow{
		{name: "kills the child: hang", broken: killsChild, want: lines(S(F["own group"])), fixed: starts(asIs)},
		{name: "kills the child: survivor", broken: withoutPipe(killsChild), want: lines(S(F["own group"])), fixed: withoutPipe(starts(asIs))},
		{name: "kills the child in Run", builds: []string{"exec.CommandContext"}, broken: func(b build, d *exectest.Descendant, _ *reaper) func(context.Context) error {
			return func(ctx context.Context) error {
				//execcheck:ignore a runner broken on purpose: the diagnosis tests need its failure
				return b.command(ctx, d.Argv()).Run()
			}
		}, want: lines(F["own group"]), fixed: runs(asIs)},
		{name: "kills the child in Output", builds: []string{"exec.CommandContext"}, broken: outputs("Output"),
			want: lines(check.ForRunCall(F["own group"], "Output")), fixed: runsKeeping("Output")},
		{name: "kills the child in CombinedOutput", builds: []string{"exec.CommandContext"}, broken: outputs("CombinedOutput"),
			want: lines(check.ForRunCall(F["own group"], "CombinedOutput")), fixed: runsKeeping("CombinedOutput")},
		{name: "kills the child, reads StdoutPipe", broken: readsPipe(false),
			want: lines(S(F["own group"])), fixed: readsPipe(true)},
		{name: "kills the child, writes StdinPipe", broken: writesStdin(false),
			want: lines(S(F["own group"])), fixed: writesStdin(true)},
		{name: "own group, kills the child", broken: func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
			cmd := b.cmd
			b.cmd = func(ctx context.Context, argv []string) *exec.Cmd { return ownGroup(cmd(ctx, argv)) }
			return killsChild(b, d, rp)
		}, want: lines(S(F["kill group"])), fixed: starts(ownGroup)},
		{name: "group SIGINT, background job", need: needSigIgn, broken: signalsGroup(syscall.SIGINT),
			want: lines(S(check.FixIgnored(syscall.SIGINT, 500*time.Millisecond))), fixed: gracefully(syscall.SIGINT)},
		{name: "group SIGQUIT, background job", need: needSigIgn, broken: signalsGroup(syscall.SIGQUIT),
			want: lines(S(check.FixIgnored(syscall.SIGQUIT, 500*time.Millisecond))), fixed: gracefully(syscall.SIGQUIT)},
		{name: "group SIGINT, background job, no pipe", need: needSigIgn, broken: withoutPipe(signalsGroup(syscall.SIGINT)),
			want: lines(S(check.FixIgnored(syscall.SIGINT, 500*time.Millisecond))), fixed: withoutPipe(gracefully(syscall.SIGINT))},
		{name: "group SIGTERM, trap", opts: []exectest.DescendantOption{exectest.IgnoresTerm()}, need: needSigIgn, broken: signalsGroup(syscall.SIGTERM),
			want: lines(S(check.FixIgnored(syscall.SIGTERM, 500*time.Millisecond))), fixed: gracefully(syscall.SIGTERM)},
		{name: "group SIGINT, signal.Ignore", opts: []exectest.DescendantOption{exectest.IgnoresTerm(), exectest.Hermetic()}, need: needSigIgn, broken: signalsGroup(syscall.SIGINT),
			want: lines(S(check.FixIgnored(syscall.SIGINT, 500*time.Millisecond))), fixed: gracefully(syscall.SIGINT)},
		{name: "group SIGINT, portable mode: no word on signals", need: needPortableMode, broken: signalsGroup(syscall.SIGINT),
			want: lines(S(F["kill group"])), fixed: starts(ownGroup)},
		{name: "launcher, group killed while the child runs", opts: []exectest.DescendantOption{exectest.Launcher()}, broken: killsGroupWhileChildRuns,
			want: lines(S(F["launcher"])), fixed: starts(ownGroup)},
		{name: "escaped, group killed: Contain", opts: []exectest.DescendantOption{exectest.Escaping()}, need: needContain, broken: killsGroup,
			want: lines(S(F["contain"])), fixed: starts(ownGroup, cancelpolicy.Contain())},
		{name: "kills later", broken: killsLater, want: lines(F["wait first"]), fixed: runs(ownGroup)},
		{name: "returns after start", broken: startsOnly, want: lines(F["early"]), fixed: runs(asIs)},
		{name: "abandons", broken: abandons, want: lines(F["stop, then wait"], F["own group"]), fixed: runs(asIs)},
		{name: "never waits: goroutine", builds: []string{"exec.CommandContext"}, broken: unwaited(false),
			want: lines(F["wait"]), fixed: unwaited(true)},
		{name: "never waits: descriptor", builds: []string{"exec.Command"}, need: needLeakSight, broken: unwaited(false),
			want: lines(F["close descriptors"]), fixed: unwaited(true)},
		{name: "keeps the write end", need: needHolderSight, broken: keepsWriteEnd(false),
			want: lines(F["test process holds"]), fixed: keepsWriteEnd(true)},
		{name: "never starts", vacuous: true, broken: neverStarts, want: lines(F["start argv"]), fixed: runs(asIs)},
	}
}

func needSigIgn(t *testing.T) { systemtest.NeedSight(t, "which signals a process ignores") }

func needLeakSight(t *testing.T) {
	systemtest.NeedSight(t, "which ends of the command's pipes the test process still holds")
}

func needHolderSight(t *testing.T) { systemtest.NeedSight(t, "who holds the command's pipes") }

func needContain(t *testing.T) {
	if !testenv.CanContain(t) {
		t.Skip("cancelpolicy.Contain cannot make a cgroup here: the PID namespace row applies the line's other fix")
	}
}

// needPortableMode: the portable mode cannot read which signals a process
// ignores, and must say nothing of them rather than guess.
func needPortableMode(t *testing.T) {
	if !systemtest.Portable {
		t.Skip("the portable mode's line: in the Linux mode the ignored signal is named")
	}
}

// strictMode says whether a vacuous check fails here instead of skipping.
func strictMode() bool {
	v, _ := strconv.ParseBool(os.Getenv("EXECTEST_STRICT"))
	return v
}

// Every failure ends with the change that fixes it, chosen from what the
// check saw, and each change is a claim: applied as the line says to a
// runner that fails with it, built with exec.Command or
// exec.CommandContext, the check passes. Before, the lines advised
// cancelpolicy.Apply and a hand-written Cancel, which break a command from
// exec.Command ("exec: command with a non-nil Cancel was not created with
// CommandContext"); a Wait that would hang; and never named a cancel
// signal that the survivor ignores.
func TestFailuresSayWhatToChange(t *testing.T) {
	for _, row := range append(fixRows(), sandboxFixRows()...) {
		for _, b := range builds {
			if row.builds != nil && !slices.Contains(row.builds, b.name) {
				continue
			}
			t.Run(row.name+"/"+b.name, func(t *testing.T) {
				if row.need != nil {
					row.need(t)
				}
				t.Parallel()
				var rp reaper
				defer rp.reap()
				var want []string
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, row.opts...)
					want = row.want(d)
					exectest.AssertCancel(tb, d, row.broken(b, d, &rp))
				})
				verdict := "fail"
				if row.vacuous && !strictMode() {
					verdict = "skip"
				}
				f.WantVerdict(t, verdict)
				slices.Sort(want)
				if got := fixLines(f.Recorded()); !slices.Equal(got, want) {
					t.Fatalf("fix lines: got\n\t%s\nwant\n\t%s\nrecorded:%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"), f.Recorded())
				}
				opts := row.opts
				if row.fixedOpts != nil {
					opts = row.fixedOpts
				}
				f = systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, opts...)
					exectest.AssertCancel(tb, d, row.fixed(b, d, &rp))
				})
				f.WantVerdict(t, "pass")
			})
		}
	}
}

// Two fix lines of a vacuous check no runner here reaches: a descendant
// that reported but not in the shape asked for (the fixtures take their
// shapes themselves), and one that never reported and never said why.
// They name a change where the command runs; what can be tested is that
// they are chosen from what the fixture said.
func TestUnprovedFixLinesByWhatTheFixtureSaid(t *testing.T) {
	for _, c := range []struct {
		failures []string
		started  int
		want     string
	}{
		{[]string{"descendant pid 42 reported alive but not as a TERM-ignoring descendant: SigIgn: got 0, want SIGINT and SIGTERM"}, 1, check.FixLines["shape"]},
		{nil, 1, check.FixLines["report"]},
		{nil, 0, check.FixLines["start argv"]},
	} {
		if got := check.FixUnproved(c.failures, c.started); got != c.want {
			t.Errorf("fixture said %q, started %d: got %q, want %q", strings.Join(c.failures, "; "), c.started, got, c.want)
		}
	}
}

// docs/failures.md lists every fix line exactly as printed, with the test
// that applies it: each row of TestFailuresSayWhatToChange is named there.
func TestFailuresDocListsEveryFixLine(t *testing.T) {
	b, err := os.ReadFile("../../docs/failures.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	want := []string{
		check.ForRunCall(check.FixLines["own group"], "Output"),
		check.ForRunCall(check.FixLines["own group"], "CombinedOutput"),
		check.ForRunCall(check.FixLines["own group"], "Start"),
		check.ForRunCall(check.FixLines["contain"], "cancelpolicy.Run"),
		check.ForRunCall(check.FixIgnored(syscall.SIGINT, 500*time.Millisecond), "cancelpolicy.Run"),
		check.FixIgnored(syscall.SIGINT, 500*time.Millisecond),
		check.FixKillCgroup("<dir>"),
		check.FixReach("<dir>"),
		check.FixNotStarted(errors.New("<err>")),
	}
	for _, line := range check.FixLines {
		want = append(want, line)
	}
	for _, line := range want {
		if !strings.Contains(doc, "`"+line+"`") {
			t.Errorf("docs/failures.md: got no %q, want every fix line in its table", line)
		}
	}
	for _, row := range append(fixRows(), sandboxFixRows()...) {
		name := strings.ReplaceAll(row.name, " ", "_")
		if !strings.Contains(doc, "TestFailuresSayWhatToChange/"+name+"`") {
			t.Errorf("docs/failures.md: got no TestFailuresSayWhatToChange/%s, want the table to name the test of each fix line", name)
		}
	}
}

// A fix line names the cancelpolicy call for how run was seen running the
// command: with its options, and in place of what. Where run reads the
// command's pipes between its Start and its Wait, cancelpolicy.Run in
// place of both would leave the reads a closed pipe.
func TestFixLinesForHowRunRunsTheCommand(t *testing.T) {
	F := check.FixLines
	ignored := check.FixIgnored(syscall.SIGINT, 500*time.Millisecond)
	for _, c := range []struct {
		line, call, want string
	}{
		{ignored, "Start", "cancelpolicy.Start(ctx, cmd, cancelpolicy.Graceful(syscall.SIGINT, 500*time.Millisecond)) in place of cmd.Start(), and the Wait() of what it returns in place of cmd.Wait(), keeping what run does between them and dropping the kill (cmd from exec.Command or exec.CommandContext)"},
		{F["contain"], "Start", "cancelpolicy.Start(ctx, cmd, cancelpolicy.Contain()) in place of cmd.Start(), and the Wait() of what it returns"},
		{F["launcher"], "Output", "cancelpolicy.Run(ctx, cmd) in place of cmd.Output(), with a bytes.Buffer set as cmd.Stdout before it, whose Bytes() are the output (and another as cmd.Stderr if the *exec.ExitError's Stderr was read; cmd from exec.Command or exec.CommandContext); it kills the group also after the child exited"},
		{F["own group"], "", F["own group"]},
	} {
		got := check.ForRunCall(c.line, c.call)
		if !strings.Contains(got, c.want) {
			t.Errorf("fix line for run seen in %q: got\n\t%s\nwant it to contain\n\t%s", c.call, got, c.want)
		}
		if c.call != "" && strings.Contains(got, "in place of cmd.Run()") {
			t.Errorf("fix line for run seen in %q: got\n\t%s\nwant no cmd.Run()", c.call, got)
		}
	}
	// Lines with no cancelpolicy call stay as they are.
	if got := check.ForRunCall(F["wait"], "Start"); got != F["wait"] {
		t.Errorf("wait line for run seen in Start: got %q, want it unchanged", got)
	}
}
