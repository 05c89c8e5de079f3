// Package testbinary holds a test that re-executes its own test binary
// as the child (in its _test.go file): the binary runs only the tests
// -test.run names, and TestMain; whether those start a process decides
// whether the child is a leaf.
package testbinary

import "os/exec"

// Spawn starts a process: a helper that calls it is no leaf.
func Spawn() error { return exec.Command("true").Run() }
