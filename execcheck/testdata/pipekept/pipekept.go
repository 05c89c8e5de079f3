//go:build unix

// Package pipekept holds output pipes kept in a package variable's
// fields and scanned to EOF by goroutines that a WaitGroup joins before
// Wait (reduced from a game server's supervisor). The pipes are the
// command's: the scans last as long as any descendant holds them.
package pipekept

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
)

type term struct {
	cmd     *exec.Cmd
	outPipe io.ReadCloser
	errPipe io.ReadCloser
	wg      sync.WaitGroup
}

var serv term

func load(command string) error {
	serv.cmd = exec.Command("sh", "-c", command)
	serv.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var err error
	serv.outPipe, err = serv.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	serv.errPipe, err = serv.cmd.StderrPipe()
	return err
}

// Start: the timeout's kill (Stop) reaches only sh.
func Start(command string) error {
	if err := load(command); err != nil {
		return err
	}
	go printer()
	if err := serv.cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(bufio.NewScanner\), which WaitDelay does not close and nothing bounds Wait; a cancel kills only the direct child \(serv.cmd.Process.Kill\(\)\)`
		return err
	}
	go waitForExit()
	return nil
}

func printer() {
	serv.wg.Add(2)
	go func() {
		defer serv.wg.Done()
		sc := bufio.NewScanner(serv.outPipe)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
	}()
	go func() {
		defer serv.wg.Done()
		sc := bufio.NewScanner(serv.errPipe)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
	}()
}

func waitForExit() {
	serv.wg.Wait()
	serv.cmd.Wait()
}

// Stop is the timeout's kill.
func Stop() error { return serv.cmd.Process.Kill() } // want Stop:`execcheck\[kills: child:KILL\]`

// A second server, fixed: its Stop kills the group, whenever it comes.
type fixedTerm struct {
	cmd     *exec.Cmd
	outPipe io.Reader
}

var fixed fixedTerm

func StartFixed(command string) error {
	fixed.cmd = exec.Command("sh", "-c", command)
	fixed.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var err error
	if fixed.outPipe, err = fixed.cmd.StdoutPipe(); err != nil {
		return err
	}
	if err := fixed.cmd.Start(); err != nil {
		return err
	}
	go func() {
		sc := bufio.NewScanner(fixed.outPipe)
		for sc.Scan() {
			fmt.Println(sc.Text())
		}
		fixed.cmd.Wait()
	}()
	return nil
}

func StopFixed() error { return syscall.Kill(-fixed.cmd.Process.Pid, syscall.SIGKILL) } // want StopFixed:`execcheck\[kills: group:KILL\]`
