// Package marker is the line protocol by which fixture processes report to
// the test: one line per event, written whole to a FIFO (a write of less
// than PIPE_BUF bytes is atomic, so lines never interleave), or on
// Windows appended whole to a file that the test tails.
//
//	exectest TOKEN started PID STAT   the direct child runs and waits for the go-ahead (STAT: its /proc/self/stat, or Here)
//	exectest TOKEN running PID STAT   the direct child runs, already tracked: it does not wait
//	exectest TOKEN alive PID STAT     the descendant runs in its final shape
//	exectest TOKEN exit STATUS        the direct child saw the descendant end
//	exectest TOKEN fail REASON        a fixture process cannot do its part
package marker

import (
	"strconv"
	"strings"
)

// Kinds of event.
const (
	Started = "started"
	Running = "running"
	Alive   = "alive"
	Exit    = "exit"
	Fail    = "fail"
)

// Here, in place of a stat line, says that the writer saw the test's own
// /proc, so that PID is its pid in the test's PID namespace, and read no
// stat: the test reads the writer's stat itself.
const Here = "@"

// Event is one parsed line.
type Event struct {
	Kind string
	PID  int    // Started, Alive: the writer's pid in its own PID namespace
	Stat string // Started, Alive: the writer's /proc/self/stat, Here, or empty without /proc
	Text string // Exit: the status; Fail: the reason
}

// Line formats an event for token.
func Line(token, kind, payload string) string {
	return "exectest " + token + " " + kind + " " + payload + "\n"
}

// Parse reads one line; ok is false for lines of another token or not of
// the protocol.
func Parse(token, line string) (e Event, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "exectest "+token+" ")
	if !ok {
		return Event{}, false
	}
	kind, payload, _ := strings.Cut(rest, " ")
	e.Kind = kind
	switch kind {
	case Started, Running, Alive:
		pid, stat, _ := strings.Cut(payload, " ")
		n, err := strconv.Atoi(pid)
		if err != nil {
			return Event{}, false
		}
		e.PID, e.Stat = n, strings.TrimSpace(stat)
	case Exit, Fail:
		e.Text = payload
	default:
		return Event{}, false
	}
	return e, true
}
