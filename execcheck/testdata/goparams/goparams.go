// Package goparams holds pipes read in goroutines another package's
// function starts (lib.SafeGo, reduced from a robot SDK's managed
// process) or sync.WaitGroup.Go: the reads run beside the Wait that
// follows, which closes the pipe once the direct child exits.
package goparams

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"sync"

	"example.com/t/goparams/lib"
)

// Managed: read in lib.SafeGo's goroutine, beside Wait.
func Managed(argv []string, stop <-chan struct{}) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Signal\(os.Interrupt\)\)`
		return err
	}
	go func() {
		<-stop
		_ = cmd.Process.Signal(os.Interrupt)
	}()
	lib.SafeGo(func() { _, _ = io.Copy(os.Stdout, stdout) })
	return cmd.Wait()
}

// Called: lib.Call reads where it stands, before Wait: a descendant
// holding the pipe keeps both waiting.
func Called(argv []string, stop <-chan struct{}) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(io.Copy\)`
		return err
	}
	go func() {
		<-stop
		_ = cmd.Process.Signal(os.Interrupt)
	}()
	lib.Call(func() { _, _ = io.Copy(os.Stdout, stdout) })
	return cmd.Wait()
}

// Grouped: read in a WaitGroup's Go, beside Wait, joined after it.
func Grouped(argv []string, stop <-chan struct{}) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a cancel kills only the direct child \(cmd.Process.Kill\(\)\)`
		return err
	}
	go func() {
		<-stop
		_ = cmd.Process.Kill()
	}()
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = io.Copy(os.Stdout, stdout) })
	err = cmd.Wait()
	wg.Wait()
	return err
}

// Awaited: lib.RunWait reads in a goroutine but waits for it, before
// Wait: a hang, as where it stands.
func Awaited(argv []string, stop <-chan struct{}) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^hang: stdout is read from StdoutPipe\(\) until EOF \(io.Copy\)`
		return err
	}
	go func() {
		<-stop
		_ = cmd.Process.Signal(os.Interrupt)
	}()
	lib.RunWait(func() { _, _ = io.Copy(os.Stdout, stdout) })
	return cmd.Wait()
}

// Tasked: the run is in a literal lib.SafeGo starts in a goroutine, as
// a task runner's task, whose end the runner may wait for where
// execcheck does not see: its Wait is a call that waits, a hang.
func Tasked(argv []string, stop <-chan struct{}) {
	lib.SafeGo(func() {
		cmd := exec.Command(argv[0], argv[1:]...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait`
			return
		}
		go func() {
			<-stop
			_ = cmd.Process.Kill()
		}()
		_ = cmd.Wait()
	})
}
