package runners

import "os/exec"

// ownGroup does nothing: Windows has no process groups of this kind.
func ownGroup(*exec.Cmd) {}

// killGroup kills the process alone, all that Windows offers here.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// trueArgv is a command that exits 0 at once.
var trueArgv = []string{"cmd.exe", "/c", "exit 0"}
