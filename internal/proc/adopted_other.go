//go:build !linux

package proc

import "os"

// adoptedBy lists the test process's children: off Linux, only the
// portable mode runs, and it never asks (see ReapAdopted).
func adoptedBy() []int { return Children(os.Getpid()) }
