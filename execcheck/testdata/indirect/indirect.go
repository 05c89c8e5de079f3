//go:build unix

// Package indirect holds exec sites whose command is hardened, made or
// run somewhere else: helpers in other files (and per system), a
// constructor, a struct field, Cancel closures that call helpers.
package indirect

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Clone hardens the command in a helper of another file: git is no
// launcher, so the group kill with its WaitDelay stops it.
func Clone(ctx context.Context, url string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", "clone", url)
	hardenProcessLifetime(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// Any hardens a command the caller chose, which may be a launcher.
func Any(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	hardenProcessLifetime(cmd)
	return cmd.Run() // want `^launcher: Cancel kills the group \(unix.Kill\(-cmd.Process.Pid, unix.SIGKILL\)\)`
}

// newCommand is a constructor: the caller runs what it returns.
func newCommand(ctx context.Context, argv []string) *exec.Cmd { // want newCommand:`^execcheck\[result: \[made\(1\) copypipe\]\]$`
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd
}

// Constructed runs what newCommand made.
func Constructed(ctx context.Context, argv []string) error {
	return newCommand(ctx, argv).Run() // want `^hang: stdout is a \*bytes.Buffer`
}

// ConstructedHardened hardens and runs what newCommand made: go is no
// launcher.
func ConstructedHardened(ctx context.Context) error {
	cmd := newCommand(ctx, []string{"go", "vet"})
	hardenProcessLifetime(cmd)
	return cmd.Run() // want `^launcher: .*the program \(argv\[0\]\) is not a constant`
}

// AttrHelper sets SysProcAttr through a helper and kills the group in a
// Cancel that calls another.
func AttrHelper(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "make", "all")
	cmd.SysProcAttr = sysProcAttr()
	cmd.Cancel = func() error { return killTree(cmd) }
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Factory takes its Cancel from a function that returns one.
func Factory(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "make", "all")
	cmd.SysProcAttr = sysProcAttr()
	cmd.Cancel = groupKiller(cmd)
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// AttrField sets the group bit on the command's own SysProcAttr.
func AttrField(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "make", "all")
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return killTree(cmd) }
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Interrupted signals the group through a helper with a signal argument:
// SIGINT, and no SIGKILL after it.
func Interrupted(ctx context.Context, script string) error {
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.SysProcAttr = sysProcAttr()
	cmd.Cancel = func() error { return signalGroup(cmd, syscall.SIGINT) }
	cmd.WaitDelay = time.Second
	return cmd.Run() // want `^launcher: a cancel sends the group a signal that background jobs of sh -c ignore \(syscall.Kill\(-cmd.Process.Pid, sig\) \(in signalGroup\)\)`
}

// Job is a command in a struct field: made in one method, run in another,
// killed by hand in a third.
type Job struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

func NewJob(argv []string) *Job {
	j := &Job{cmd: exec.Command(argv[0], argv[1:]...)}
	j.cmd.Stdout = &j.out
	return j
}

func (j *Job) Start() error {
	return j.cmd.Start() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(j.cmd.Process.Kill\(\)\)`
}

func (j *Job) Cancel() {
	_ = j.cmd.Process.Kill()
}

func (j *Job) Wait() error { return j.cmd.Wait() }

// Local runs its commands through a closure bound to a name.
func Local(ctx context.Context, scripts []string) error {
	run := func(cmd *exec.Cmd) error {
		var out bytes.Buffer
		cmd.Stdout = &out
		return cmd.Run()
	}
	for _, s := range scripts {
		if err := run(exec.CommandContext(ctx, "sh", "-c", s)); err != nil { // want `^hang: stdout is a \*bytes.Buffer`
			return err
		}
	}
	return nil
}

// withGroup is a builder: it returns the command it was given.
func withGroup(cmd *exec.Cmd) *exec.Cmd { // want withGroup:`^execcheck\[param 0: \[group waitdelay cancel\(group:KILL\)\] returns param 0\]$`
	cmd.SysProcAttr = sysProcAttr()
	cmd.Cancel = groupKiller(cmd)
	cmd.WaitDelay = time.Second
	return cmd
}

// Built runs a command through the builder: go is no launcher.
func Built(ctx context.Context) error {
	return withGroup(exec.CommandContext(ctx, "go", "build", "./...")).Run()
}

// Retried makes its command in a closure bound to a name, as a runner
// that retries a failed Start does: a fresh command each time.
func Retried(ctx context.Context, path string, args []string) error {
	newCmd := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, path)
		cmd.Args = args
		cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
		cmd.WaitDelay = 2 * time.Second
		return cmd
	}
	cmd := newCmd()
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Signal\(syscall.SIGINT\)\)`
		cmd = newCmd()
		if err := cmd.Start(); err != nil { // want `^orphan: `
			return err
		}
	}
	return cmd.Wait()
}

// background starts a command and returns it: its caller keeps it and
// stops it later.
func background(argv []string) (*exec.Cmd, error) { // want background:`^execcheck\[result: \[made\(1\) copypipe runs:Start\]\]$`
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	return cmd, cmd.Start()
}

// Script keeps the background commands it started and interrupts them
// at its end.
type Script struct {
	bg []*exec.Cmd
}

func (s *Script) Background(argv []string) error {
	cmd, err := background(argv) // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child \(c.Process.Signal\(os.Interrupt\)\)`
	s.bg = append(s.bg, cmd)
	return err
}

func (s *Script) End() {
	for _, c := range s.bg {
		c.Process.Signal(os.Interrupt)
		c.Wait()
	}
}

// build sets up the command it returns in a deferred call on its named
// result, before the body assigns it.
func build(name string) (cmd *exec.Cmd) { // want build:`^execcheck\[result: \[made\(2\) group\]\]$`
	defer func() {
		if cmd != nil {
			cmd.SysProcAttr = sysProcAttr()
		}
	}()
	if name == "" {
		return exec.Command("true")
	}
	cmd = exec.Command(name)
	return cmd
}

// terminate signals the group of a process, then kills it.
func terminate(p *os.Process) { // want terminate:`^execcheck\[pid param 0: group:INT, group:KILL\]$`
	_ = syscall.Kill(-p.Pid, syscall.SIGINT)
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// Deferred runs what build made and stops its group through a helper
// that takes the process: ok.
func Deferred(ctx context.Context, name string) error {
	cmd := build(name)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return err
	}
	defer context.AfterFunc(ctx, func() { terminate(cmd.Process) })()
	return cmd.Wait()
}
