// Package xexec makes commands whose output it logs, in goroutines of
// its own that nothing waits for (reduced from gotenberg's xexec).
package xexec

import (
	"bufio"
	"context"
	"io"
	"log"
	"os/exec"
)

// CommandContext is exec.CommandContext, its output logged when debug.
func CommandContext(ctx context.Context, debug bool, name string, args ...string) (*exec.Cmd, error) { // want CommandContext:`^execcheck\[result: \[made\(1\) readpipe readsapart\]\]$`
	cmd := exec.CommandContext(ctx, name, args...)
	if err := pipe(debug, cmd); err != nil {
		return nil, err
	}
	return cmd, nil
}

func pipe(debug bool, cmd *exec.Cmd) error { // want pipe:`^execcheck\[param 1: \[readpipe readsapart\]\]$`
	if !debug {
		return nil
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	go logOutput(stdout)
	go logOutput(stderr)
	return nil
}

func logOutput(r io.ReadCloser) {
	defer r.Close()
	br := bufio.NewReader(r)
	for {
		line, _, err := br.ReadLine()
		if err != nil {
			return
		}
		log.Print(string(line))
	}
}
