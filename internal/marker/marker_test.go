package marker

import "testing"

func TestParse(t *testing.T) {
	cases := []struct {
		line string
		want Event
		ok   bool
	}{
		{"exectest tok alive 42 42 (sh) S 1 2 3\n", Event{Kind: Alive, PID: 42, Stat: "42 (sh) S 1 2 3"}, true},
		{"exectest tok started 7", Event{Kind: Started, PID: 7}, true},
		{"exectest tok running 7 @", Event{Kind: Running, PID: 7, Stat: Here}, true},
		{"exectest tok exit 137", Event{Kind: Exit, Text: "137"}, true},
		{"exectest tok fail /bin/sleep cannot run here: exit status 127", Event{Kind: Fail, Text: "/bin/sleep cannot run here: exit status 127"}, true},
		{"exectest other alive 42 x", Event{}, false}, // another fixture's line
		{"exectest tok alive notapid", Event{}, false},
		{"exectest tok bogus 1", Event{}, false},
		{"garbage", Event{}, false},
	}
	for _, c := range cases {
		got, ok := Parse("tok", c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("Parse(%q): got %+v, %v, want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestLineRoundTrip(t *testing.T) {
	got, ok := Parse("tok", Line("tok", Alive, "9 9 (x) S 1 1 1"))
	if want := (Event{Kind: Alive, PID: 9, Stat: "9 (x) S 1 1 1"}); !ok || got != want {
		t.Errorf("Parse(Line(...)): got %+v, %v, want %+v", got, ok, want)
	}
}
