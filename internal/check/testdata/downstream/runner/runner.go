// Package runner runs a command for the rest of the program.
package runner

import (
	"bytes"
	"context"
	"os/exec"
	"time"
)

// Run runs argv and returns its output. A watchdog looks at ctx every
// 10ms and kills the command once ctx is done.
func Run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if ctx.Err() != nil {
					cmd.Process.Kill()
					return
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	return out.String(), err
}
