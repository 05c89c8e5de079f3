//go:build unix

// Package stopfunc makes a command with the function that stops it,
// reduced from cirello-io/runner: `c, stopCmd := commandContext(line)`,
// and stopCmd called by a watch of the context. The kills of the
// returned function are the returned command's (they were not seen:
// "no cancel").
package stopfunc

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

func commandContext(line string) (*exec.Cmd, func() error) { // want commandContext:`^execcheck\[result: \[made\(1\) group waitdelay\] returns a func that kills the command returned: group:KILL, child:KILL\]$`
	c := exec.Command("sh", "-c", line)
	c.WaitDelay = time.Minute
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c, func() error {
		if err := syscall.Kill(-c.Process.Pid, syscall.SIGKILL); err != nil {
			return err
		}
		return c.Process.Kill()
	}
}

// Ended: the watch ends with the deferred close once Run returns, when
// the shell exits: its group is killed only while it runs.
func Ended(ctx context.Context, line string) error {
	c, stopCmd := commandContext(line)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			_ = stopCmd()
		case <-done:
		}
	}()
	defer close(done)
	return c.Run() // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-c.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with defer close\(done\)\)`
}

// Watched: the watch lasts as long as the context.
func Watched(ctx context.Context, line string) error {
	c, stopCmd := commandContext(line)
	go func() {
		<-ctx.Done()
		_ = stopCmd()
	}()
	return c.Run()
}

func direct(line string) (*exec.Cmd, func()) { // want direct:`^execcheck\[result: \[made\(1\)\] returns a func that kills the command returned: child:KILL\]$`
	c := exec.Command("sh", "-c", line)
	return c, func() { _ = c.Process.Kill() }
}

// Direct: the stop function kills the shell alone.
func Direct(ctx context.Context, line string) error {
	c, stop := direct(line)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return c.Run() // want `^orphan: a cancel kills only the direct child \(c.Process.Kill\(\)\)`
}

// closer is wails' runFrontendDevWatcherCommand: it runs the watcher in
// a goroutine and returns only the func that stops it, which finds the
// group by Getpgid once Run may have reaped the child.
func closer(dir string, argv []string, wg *sync.WaitGroup) func() { // want closer:`^execcheck\[returns a func that kills: group:other\]$`
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdout = os.Stdout
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = cmd.Run() // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-pgid, syscall.SIGTERM\) \(in the func closer returns\); no SIGKILL follows: a process that ignores the signal survives\) only while the direct child runs`
	}()
	return func() {
		if pgid, err := syscall.Getpgid(cmd.Process.Pid); err == nil {
			_ = syscall.Kill(-pgid, syscall.SIGTERM)
		}
		cancel()
		wg.Wait()
	}
}
