package main

import "github.com/exectest/exectest/proctest"

// role is what the matrix makes of a proctest.Process.Role: the noun its
// reasons call the process by, and whether the process is the fixture's
// (one the check follows and kills) rather than a stranger or the test
// process.
type role struct {
	noun    string
	fixture bool
}

// roles maps the words exectest puts in proctest.Process.Role to a role.
// The public API has the words only, not a type to decide by, so the
// matrix keys on them; its test fails if a fixture process it names comes
// out as an unknown one, which is how a change to the words would show.
var roles = map[string]role{
	"fixture process": {"fixture process", true},
	"fixture child":   {"fixture child", true},
	"descendant":      {"descendant", true},
	"descendant, escaped into its own session":       {"escaped descendant", true},
	"descendant, orphaned: its launcher exited":      {"orphaned descendant", true},
	"descendant, ignoring SIGINT and SIGTERM":        {"TERM-ignoring descendant", true},
	"descendant, in a process group of its own":      {"job-control descendant", true},
	"descendant, double-forked into its own session": {"double-forked descendant", true},
	"not the fixture's, not killed":                  {"process outside the fixture", false},
	// The test process's words end in advice to the runner's author.
	"the test process itself, not killed: run kept the write end open; close it after cmd.Start": {"test process", false},
}

// unknownRole is a process exectest gave no role the matrix knows: it is
// not counted as the fixture's, and named by what it runs alone.
var unknownRole = role{noun: "process"}

// roleOf is the role of p, unknownRole for words roles does not have.
func roleOf(p proctest.Process) role {
	if r, ok := roles[p.Role]; ok {
		return r
	}
	return unknownRole
}
