// Package runner runs commands it is handed, as a module's helper
// package does: the Start is here, the cancel in its callers.
package runner

import (
	"bytes"
	"os/exec"
)

// Capture runs cmd with its output in a buffer.
func Capture(cmd *exec.Cmd) (string, error) {
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}
