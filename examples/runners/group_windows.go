package runners

import "os/exec"

// ownGroup does nothing: Windows has no process groups of this kind.
func ownGroup(*exec.Cmd) {}

// killGroup kills the process alone: Windows has no group to kill, and
// a hand-written Cancel reaches no further (cancelpolicy.Run's Job Object
// does: see the matrix's Windows row).
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// trueArgv is a command that exits 0 at once.
var trueArgv = []string{"cmd.exe", "/c", "exit 0"}
