package watchdog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/exectest/exectest/internal/proc"
)

// A message is one line of the protocol (see the package doc).
type message struct {
	kind  string // "dir", "cgroup", "proc" or "end"
	token string
	path  string
	id    proc.Identity
}

func (m message) String() string {
	switch m.kind {
	case "dir", "cgroup":
		return m.kind + " " + m.token + " " + strconv.Quote(m.path) + "\n"
	case "proc":
		return fmt.Sprintf("proc %s %d %d\n", m.token, m.id.PID, m.id.Start)
	}
	return m.kind + " " + m.token + "\n"
}

// parse reads one line of the protocol.
func parse(line string) (message, error) {
	kind, rest, _ := strings.Cut(line, " ")
	token, arg, _ := strings.Cut(rest, " ")
	m := message{kind: kind, token: token}
	if token == "" {
		return m, fmt.Errorf("watchdog: line %q: no token", line)
	}
	var err error
	switch kind {
	case "dir", "cgroup":
		m.path, err = strconv.Unquote(arg)
	case "proc":
		_, err = fmt.Sscanf(arg, "%d %d", &m.id.PID, &m.id.Start)
	case "end":
	default:
		err = fmt.Errorf("got kind %q, want dir, cgroup, proc or end", kind)
	}
	if err != nil {
		return m, fmt.Errorf("watchdog: line %q: %w", line, err)
	}
	return m, nil
}

// apply adds what m says to fixtures, the watchdog's knowledge, by token.
func apply(fixtures map[string]*proc.Remains, owner int, m message) {
	if m.kind == "end" {
		delete(fixtures, m.token)
		return
	}
	r := fixtures[m.token]
	if r == nil {
		r = &proc.Remains{Owner: owner, Token: m.token}
		fixtures[m.token] = r
	}
	switch m.kind {
	case "dir":
		r.Dir = m.path
	case "cgroup":
		r.Cgroup = m.path
	case "proc":
		r.Known = append(r.Known, m.id)
	}
}
