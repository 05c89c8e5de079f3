//go:build unix

package exectest

// noFixtureHere is "": the fixture runs wherever there is a /bin/sh and
// FIFOs (NewDescendant checks the programs it needs).
func noFixtureHere() string { return "" }
