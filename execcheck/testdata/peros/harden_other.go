//go:build !unix && !windows

package peros

import "os/exec"

// harden does nothing: Plan 9, js and wasip1 have neither process groups
// nor job objects.
func harden(*exec.Cmd) {}
