//go:build unix

// Package disposal holds commands with no cancel whose only kills by
// hand dispose of them when a set-up step after Start fails (reduced
// from a background shell tool). On those paths nothing reads the
// pipes or waits: nothing blocks, but the direct child's kill leaves
// its descendants running. On the path that reads and waits, nothing
// kills.
package disposal

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
)

// Background starts bash in a group of its own, copies its output to a
// log until EOF and waits, in a goroutine.
func Background(script, dir string) error {
	cmd := exec.Command("bash", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil { // want `^orphan: a kill by hand on an error path that returns without waiting \(cmd.Process.Kill\(\)\) kills only the direct child: its descendants keep running`
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		_ = cmd.Process.Kill()
		return err
	}
	log, err := os.Create(filepath.Join(dir, "out.log"))
	if err != nil {
		_ = cmd.Process.Kill()
		return err
	}
	go func() {
		defer log.Close()
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = io.Copy(log, stdout)
		}()
		wg.Wait()
		_ = cmd.Wait()
	}()
	return nil
}

// KillAndWait: the disposal waits for the command after its kill, and
// Wait waits for every holder of the output's pipe.
func KillAndWait(script, dir string) error {
	cmd := exec.Command("bash", "-c", script)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil { // want `^hang: stdout is a \*bytes.Buffer`
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	return cmd.Wait()
}
