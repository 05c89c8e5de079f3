package watchdog

import (
	"os"
	"reflect"
	"testing"

	"github.com/exectest/exectest/internal/proc"
)

// Every message reads back as it was written, whatever its path holds.
func TestMessageRoundTrip(t *testing.T) {
	for _, m := range []message{
		{kind: "dir", token: "a1b2", path: "/tmp/exectest-1.2-a1b2-3"},
		{kind: "dir", token: "a1b2", path: "/tmp/with space/\"quoted\"\nnewline"},
		{kind: "cgroup", token: "a1b2", path: "/sys/fs/cgroup/exectest-1.2-a1b2"},
		{kind: "proc", token: "a1b2", id: proc.Identity{PID: 4242, Start: 123456789}},
		{kind: "end", token: "a1b2"},
	} {
		line := m.String()
		if line[len(line)-1] != '\n' || len(line) < 2 {
			t.Errorf("%+v: got %q, want one line", m, line)
			continue
		}
		for _, c := range line[:len(line)-1] {
			if c == '\n' {
				t.Errorf("%+v: got %q, want one line", m, line)
			}
		}
		got, err := parse(line[:len(line)-1])
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("parse(%q): got %+v, %v, want %+v", line, got, err, m)
		}
	}
}

// A line the watchdog cannot read is an error, never a fact.
func TestParseRefusesBadLines(t *testing.T) {
	for _, line := range []string{"", "dir", "dir tok", "dir tok /unquoted", "proc tok 12", "proc tok x 1", "kill tok", "end"} {
		if m, err := parse(line); err == nil {
			t.Errorf("parse(%q): got %+v, want an error", line, m)
		}
	}
}

// What the watchdog learns adds up per fixture, and an end forgets it.
func TestApply(t *testing.T) {
	fixtures := map[string]*proc.Remains{}
	owner := os.Getpid()
	for _, m := range []message{
		{kind: "dir", token: "a", path: "/tmp/a"},
		{kind: "proc", token: "a", id: proc.Identity{PID: 10, Start: 1}},
		{kind: "cgroup", token: "a", path: "/sys/fs/cgroup/a"},
		{kind: "proc", token: "a", id: proc.Identity{PID: 11, Start: 2}},
		{kind: "dir", token: "b", path: "/tmp/b"},
		{kind: "end", token: "b"},
	} {
		apply(fixtures, owner, m)
	}
	want := map[string]*proc.Remains{"a": {Owner: owner, Token: "a", Dir: "/tmp/a", Cgroup: "/sys/fs/cgroup/a",
		Known: []proc.Identity{{PID: 10, Start: 1}, {PID: 11, Start: 2}}}}
	if !reflect.DeepEqual(fixtures, want) {
		t.Errorf("apply: got %+v, want %+v", fixtures, want)
	}
}
