// Package left has sites -fix rewrites and sites it leaves to a hand
// edit.
package left

import (
	"bufio"
	"context"
	"os/exec"
	"time"
)

// Run has its context: -fix rewrites it.
func Run(ctx context.Context, argv []string) error {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	return cmd.Run()
}

// Lines reads StdoutPipe to EOF after Start: every Wait after the Start
// would change, so -fix leaves it.
func Lines(ctx context.Context, argv []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, cmd.Wait()
}

// Watched kills the command by hand when ctx is done: -fix leaves it.
func Watched(ctx context.Context, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	defer stop()
	return cmd.Run()
}
