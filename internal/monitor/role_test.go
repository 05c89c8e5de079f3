package monitor

import "testing"

// Every role reads back from its words, and no two share them: a reader
// of a result can tell them apart.
func TestOfReadsEveryRoleBack(t *testing.T) {
	for r := NoRole; r <= TestProcess; r++ {
		if got, ok := RoleOf(r.String()); !ok || got != r {
			t.Errorf("RoleOf(%q): got %v, %v, want role %d", r.String(), got, ok, r)
		}
		if r.Noun() == "" {
			t.Errorf("role %d (%q): got no noun, want one", r, r.String())
		}
	}
	if got, ok := RoleOf("descendant, escaped"); ok {
		t.Errorf("Of of a text no role has: got %v, true, want false", got)
	}
}

func TestFixtureRoles(t *testing.T) {
	for r, want := range map[Role]bool{NoRole: false, FixtureProcess: true, FixtureChild: true, Descendant: true, EscapedDescendant: true, OrphanedDescendant: true, TermIgnoringDescendant: true, GroupedDescendant: true, DaemonDescendant: true, Stranger: false, TestProcess: false} {
		if r.Fixture() != want {
			t.Errorf("role %q: Fixture got %v, want %v", r, r.Fixture(), want)
		}
	}
}
