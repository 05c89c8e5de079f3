package check

import (
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// A message about a misused Descendant names it the way its user wrote
// it, by the test that made it and where, and names the check that used
// it: its token (exectest-f2149da40f38) is the toolkit's own and says
// nothing to the test's author.

// madeBy is how a message names the Descendant that tb's test made at at.
func madeBy(tb testing.TB, at string) string {
	s := "the Descendant that " + tb.Name() + " made"
	if at != "" {
		s += " (at " + at + ")"
	}
	return s
}

// usedBy is how a message names the check in tb's test that called
// exectest.AssertCancel at at.
func usedBy(tb testing.TB, at string) string {
	s := "the check in " + tb.Name()
	if at != "" {
		s += " at " + at
	}
	return s
}

// callerOf is where the function entry (exectest.NewDescendant,
// exectest.AssertCancel) was called from, as file:line, or "" where it
// is not on the stack (a test of the engine calls it directly).
func callerOf(entry string) string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if f.Function == entry {
			if caller, _ := frames.Next(); caller.File != "" {
				return filepath.Base(caller.File) + ":" + strconv.Itoa(caller.Line)
			}
			return ""
		}
		if !more {
			return ""
		}
	}
}

// The public entry points whose callers a message names.
const (
	entryNewDescendant = "github.com/exectest/exectest.NewDescendant"
	entryAssertCancel  = "github.com/exectest/exectest.AssertCancel"
)
