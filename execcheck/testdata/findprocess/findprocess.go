//go:build unix

// Package findprocess holds kills through os.FindProcess of a command's
// pid (reduced from a hot-reload runner): the process found is the
// command's, and its Kill a kill of the direct child; of -pgid, the
// group's (reduced from kitproj/kit).
package findprocess

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
)

func killByPid(pid int) error { // want killByPid:`^execcheck\[pid param 0: child:KILL\]$`
	proc, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return proc.Kill()
}

// Run starts sh -c bin and kills it by pid when stop fires: only sh.
func Run(bin string, stop <-chan struct{}) error {
	c := exec.Command("/bin/sh", "-c", bin)
	c.Stdout = os.Stdout
	if err := c.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(proc.Kill\(\) \(in killByPid\)\)`
		return err
	}
	go func() {
		<-stop
		_ = killByPid(c.Process.Pid)
		_, _ = c.Process.Wait()
	}()
	return nil
}

// RunParam: the same, the goroutine given the command as its argument.
func RunParam(bin string, stop <-chan struct{}) error {
	c := exec.Command("/bin/sh", "-c", bin)
	c.Stdout = os.Stdout
	if err := c.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(proc.Kill\(\) \(in killByPid\)\)`
		return err
	}
	go func(cmd *exec.Cmd) {
		<-stop
		_ = killByPid(cmd.Process.Pid)
		_, _ = cmd.Process.Wait()
	}(c)
	return nil
}

// Serve is kitproj/kit's host after its fix: the group id is taken
// right after Start, and a stop sends the group a signal through
// os.FindProcess(-pgid), also after the direct child exited.
func Serve(ctx context.Context, argv []string, out io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		_ = stopGroup(pgid)
	}()
	return cmd.Wait()
}

func stopGroup(pgid int) error { // want stopGroup:`^execcheck\[pid param 0: group:KILL\]$`
	target, err := os.FindProcess(-pgid)
	if err != nil {
		return err
	}
	return target.Signal(syscall.SIGKILL)
}

// ServeLate is kit's host before its fix: the stop looks the group up
// when it comes, and kills -pid only when Getpgid found it, which it no
// longer does once Wait has reaped the direct child.
func ServeLate(ctx context.Context, argv []string, out io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is an io.Writer \(out\), a pipe unless it holds an \*os.File and nothing bounds Wait \(no WaitDelay\): a kill by hand reaches the group \(target.Signal\(syscall.SIGKILL\) \(in stopLate\)\) only while the direct child runs: it finds the group by syscall.Getpgid`
		return err
	}
	go func() {
		<-ctx.Done()
		_ = stopLate(cmd.Process.Pid)
	}()
	return cmd.Wait()
}

func stopLate(pid int) error { // want stopLate:`^execcheck\[pid param 0: group:KILL\]$`
	if _, err := syscall.Getpgid(pid); err != nil {
		return nil
	}
	target, err := os.FindProcess(-pid)
	if err != nil {
		return err
	}
	return target.Signal(syscall.SIGKILL)
}

// ServeInline: the group id is taken after Start, in the function that
// starts the goroutine; the goroutine kills -pgid when the cancel comes,
// which a test made before it ran does not tie to the child's life.
func ServeInline(ctx context.Context, argv []string, out io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	if _, err := syscall.Getpgid(pid); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}()
	return cmd.Wait()
}
