// Package runner runs a command for the rest of the program.
//
// This is ../runner/runner.go with the fix line its test prints applied
// verbatim: cancelpolicy.Start(ctx, cmd) in place of cmd.Start(), and the
// Wait() of what it returns in place of cmd.Wait(), keeping what run does
// between them (the watchdog) and dropping the kill.
package runner

import (
	"bytes"
	"context"
	"os/exec"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// Run runs argv and returns its output. A watchdog looks at ctx every
// 10ms; cancelpolicy stops the command's whole tree once ctx is done.
func Run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s, err := cancelpolicy.Start(ctx, cmd)
	if err != nil {
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
					return
				}
			}
		}
	}()
	err = s.Wait()
	close(done)
	return out.String(), err
}
