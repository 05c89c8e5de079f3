//go:build unix

// Package watchend kills a command's group from a goroutine whose watch
// the run ends once Wait returns, reduced from crawlab-team/crawlab: with
// no pipe, Wait returns when the direct child exits, so the kill
// reaches the group only while the child runs.
package watchend

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

const (
	taskCancel = "cancel"
	taskFinish = "finish"
)

// message is crawlab's shape: the goroutine takes one message and kills
// on a cancel; the run sends its own end after Wait.
func message(ch chan string, script string, log *os.File) error {
	cmd := exec.Command("sh", "-c", script)
	cmd.Stdout, cmd.Stderr = log, log
	go func() {
		signal := <-ch
		if signal == taskCancel && cmd.Process != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with ch <- taskFinish after Wait\), and nothing holds Wait long after the direct child exits \(no output pipe\), and sh -c runs a script`
		return err
	}
	if err := cmd.Wait(); err != nil {
		return err
	}
	ch <- taskFinish
	return nil
}

// sameMessage sends after Wait the very message that kills: the kill
// then comes after Wait too, and the watch does not end.
func sameMessage(ch chan string, script string, log *os.File) error {
	cmd := exec.Command("sh", "-c", script)
	cmd.Stdout = log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	go func() {
		if signal := <-ch; signal == taskCancel {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	if err := cmd.Start(); err != nil {
		return err
	}
	err := cmd.Wait()
	ch <- taskCancel
	return err
}

// selected: a select's other arm receives the done the run closes once
// Wait is back.
func selected(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with defer close\(done\)\)`
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-done:
		}
	}()
	return cmd.Wait()
}

// copied: Wait waits for the copy of a pipe nothing bounds, so the watch
// lasts while any descendant holds it.
func copied(ctx context.Context, argv []string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	return out.String(), err
}

// waiting: a constant program that waits for its children is reached
// while it runs, and so is all it started.
func waiting(ctx context.Context, dir string) error {
	cmd := exec.Command("git", "-C", dir, "gc")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-done:
		}
	}()
	return cmd.Wait()
}

// cleanup kills the group once done is closed after Wait: a kill after
// Wait, which ends what the child left, not a watch that Wait ends.
func cleanup(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		<-done
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}()
	err := cmd.Wait()
	close(done)
	return err
}

// withCancel: Cancel kills the group too; the watch adds nothing to it,
// and neither reaches a launcher's group once it exited.
func withCancel(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil { // want `^launcher: Cancel kills the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\), but os/exec calls Cancel only while the direct child runs`
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		case <-done:
		}
	}()
	return cmd.Wait()
}

// inGoroutine is reduced from sachiniyer/agent-factory: the run stands in
// a goroutine nothing waits for, but its Wait still waits for the copy
// of the pipe, and the watch with it.
func inGoroutine(ctx context.Context, lines []string) {
	go func() {
		for _, line := range lines {
			var out bytes.Buffer
			cmd := exec.Command("sh", "-c", line)
			cmd.Stdout = &out
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				continue
			}
			done := make(chan struct{})
			go func(pgid int) {
				select {
				case <-ctx.Done():
					_ = syscall.Kill(-pgid, syscall.SIGKILL)
				case <-done:
				}
			}(cmd.Process.Pid)
			_ = cmd.Wait()
			close(done)
		}
	}()
}

// looped: the watch loops, reporting on a ticker, until done, which the
// run closes once Wait is back; the done arm returns, so the loop ends
// with Wait.
func looped(ctx context.Context, argv []string, tick <-chan time.Time) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with defer close\(done\)\)`
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-ctx.Done():
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				return
			case <-tick:
			case <-done:
				return
			}
		}
	}()
	return cmd.Wait()
}

// loopedOn: the done arm leaves only the select, so the loop goes on
// and a later cancel still kills the group, after Wait.
func loopedOn(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-ctx.Done():
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				return
			case <-done:
			}
		}
	}()
	return cmd.Wait()
}

// waitedBeside is autodev's shape: the run itself watches the cancel in a
// select whose other arm takes Wait's result, sent by a goroutine that
// waits beside the reads. Wait returns when the direct child exits (the
// reads end with it), and so does the watch.
func waitedBeside(ctx context.Context, argv []string, lines chan<- string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\) \(in killGroup\)\) only until Wait returns \(the watch ends with waitCh <- cmd.Wait\(\) in a goroutine\)`
		return err
	}
	go forward(stdout, lines)
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()
	select {
	case <-ctx.Done():
		select {
		case <-waitCh:
		case <-time.After(2 * time.Second):
			_ = killGroup(cmd)
			<-waitCh
		}
		return ctx.Err()
	case err := <-waitCh:
		return err
	}
}

// closedBeside: the goroutine closes done once Wait is back.
func closedBeside(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with close\(done\) after Wait in a goroutine\)`
		return err
	}
	done := make(chan struct{})
	var werr error
	go func() {
		werr = cmd.Wait()
		close(done)
	}()
	select {
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return ctx.Err()
	case <-done:
		return werr
	}
}

// copiedBeside: Wait waits for a copy nothing bounds, so the result it
// sends comes only when every holder of the pipe is gone.
func copiedBeside(ctx context.Context, argv []string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout = &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()
	select {
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		return "", <-waitCh
	case err := <-waitCh:
		return out.String(), err
	}
}

// tickedBeside: the other arm's channel is a timer's, not the run's end.
func tickedBeside(ctx context.Context, argv []string, tick <-chan time.Time) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case <-tick:
		}
	}()
	return cmd.Wait()
}

func killGroup(cmd *exec.Cmd) error { // want killGroup:`^execcheck\[param 0: \[kills\(group:KILL\)\]\]$`
	if cmd.Process == nil || cmd.ProcessState != nil && cmd.ProcessState.Exited() {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

func forward(r io.Reader, lines chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		lines <- sc.Text()
	}
}

// loopedBeside: the select turns in a loop that forwards lines, and the
// arm that takes Wait's result returns: the watch still ends with Wait.
func loopedBeside(ctx context.Context, argv []string, lines chan<- string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-cmd.Process.Pid, syscall.SIGKILL\)\) only until Wait returns \(the watch ends with waitCh <- cmd.Wait\(\) in a goroutine\)`
		return err
	}
	got := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			got <- sc.Text()
		}
	}()
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()
	for {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		case l := <-got:
			lines <- l
		case err := <-waitCh:
			return err
		}
	}
}

// loopedOnBeside: the arm that takes Wait's result only notes it; the
// loop, and the watch, go on after Wait returned.
func loopedOnBeside(ctx context.Context, argv []string, tick <-chan time.Time) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()
	var werr error
	for {
		select {
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			return werr
		case werr = <-waitCh:
		case <-tick:
		}
	}
}

// graceAfter is sparkwing's execCmd: the cancel's arm of the first
// select SIGTERMs the group; a second select, reached only from it,
// SIGKILLs the group when Wait returns or after a grace. Every kill
// comes only where the cancel came before Wait returned: the first
// select returns on Wait's result.
func graceAfter(ctx context.Context, argv []string, lines chan<- string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^launcher: a kill by hand reaches the group \(syscall.Kill\(-pid, sig\) \(in signalGroup\) \(in waitOrStop\)\) only until Wait returns \(the watch ends with done <- cmd.Wait\(\) in a goroutine\)`
		return err
	}
	go forward(stdout, lines)
	return waitOrStop(ctx, cmd)
}

func waitOrStop(ctx context.Context, cmd *exec.Cmd) error { // want waitOrStop:`^execcheck\[param 1: \[kills\(group:other, group:KILL, group:KILL\) waited\]\]$`
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		signalGroup(cmd, syscall.SIGTERM)
	}
	select {
	case err := <-done:
		signalGroup(cmd, syscall.SIGKILL)
		return err
	case <-time.After(2 * time.Second):
		signalGroup(cmd, syscall.SIGKILL)
		return <-done
	}
}

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) { // want signalGroup:`^execcheck\[param 0: \[kills\(group:sig\(param 1\)\)\]\]$`
	pid := cmd.Process.Pid
	_ = syscall.Kill(-pid, sig)
}
