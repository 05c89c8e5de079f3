package monitor

// Roles name what the toolkit knows a process as. A role's String is the
// words a message says of the process (proctest.Process.Role); code
// decides by the Role, never by those words.

// A Role is what the toolkit knows a process as.
type Role int

const (
	// NoRole is a process the toolkit knows nothing of (proctest's checks).
	NoRole Role = iota
	// FixtureProcess is the fixture's by its tracker, without a report of
	// its own.
	FixtureProcess
	// FixtureChild is the command the code under test started.
	FixtureChild
	// Descendant is the process the fixture child leaves behind.
	Descendant
	// EscapedDescendant is the descendant of an Escaping fixture: it left
	// the command's process group and session.
	EscapedDescendant
	// OrphanedDescendant is the descendant of a Launcher fixture: the
	// fixture child that started it has exited.
	OrphanedDescendant
	// TermIgnoringDescendant is the descendant of an IgnoresTerm fixture.
	TermIgnoringDescendant
	// GroupedDescendant is the descendant of a JobControl fixture: it leads
	// a process group of its own in the command's session.
	GroupedDescendant
	// DaemonDescendant is the descendant of a DoubleFork fixture: an
	// orphan leading a session of its own.
	DaemonDescendant
	// Stranger holds the command's output pipe and is not the fixture's:
	// it is never killed.
	Stranger
	// TestProcess is the test process itself, holding a write end of the
	// command's output pipe: it is never killed.
	TestProcess
)

var roleNames = [...]string{
	NoRole:                 "",
	FixtureProcess:         "fixture process",
	FixtureChild:           "fixture child",
	Descendant:             "descendant",
	EscapedDescendant:      "descendant, escaped into its own session",
	OrphanedDescendant:     "descendant, orphaned: its launcher exited",
	TermIgnoringDescendant: "descendant, ignoring SIGINT and SIGTERM",
	GroupedDescendant:      "descendant, in a process group of its own",
	DaemonDescendant:       "descendant, double-forked into its own session",
	Stranger:               "not the fixture's, not killed",
	TestProcess:            "the test process itself, not killed: run kept the write end open; close it after cmd.Start",
}

// String is what a message says of a process in the role.
func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return ""
	}
	return roleNames[r]
}

// Fixture reports whether a process in the role is the fixture's: one the
// toolkit follows and kills.
func (r Role) Fixture() bool {
	switch r {
	case FixtureProcess, FixtureChild, Descendant, EscapedDescendant,
		OrphanedDescendant, TermIgnoringDescendant, GroupedDescendant, DaemonDescendant:
		return true
	}
	return false
}

// RoleOf is the role whose String is s, for a reader of a result (the matrix
// command): false for a text no role has.
func RoleOf(s string) (Role, bool) {
	for r, name := range roleNames {
		if name == s {
			return Role(r), true
		}
	}
	return NoRole, false
}

var roleNouns = [...]string{
	NoRole:                 "process",
	FixtureProcess:         "fixture process",
	FixtureChild:           "fixture child",
	Descendant:             "descendant",
	EscapedDescendant:      "escaped descendant",
	OrphanedDescendant:     "orphaned descendant",
	TermIgnoringDescendant: "TERM-ignoring descendant",
	GroupedDescendant:      "job-control descendant",
	DaemonDescendant:       "double-forked descendant",
	Stranger:               "process outside the fixture",
	TestProcess:            "test process",
}

// Noun roleNames a process in the role in a few words: "escaped descendant".
func (r Role) Noun() string {
	if r < 0 || int(r) >= len(roleNouns) {
		return roleNouns[NoRole]
	}
	return roleNouns[r]
}
