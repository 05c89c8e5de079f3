package goroutines

import (
	"context"
	"fmt"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
)

const sample = `goroutine profile: total 3
1 @ 0x4432d1 0x47ef9d
#	0x4e0270	runtime/pprof.writeRuntimeProfile+0xb0	/usr/local/go/src/runtime/pprof/pprof.go:851
#	0x4f3ae8	main.main+0xa8				/tmp/lbl/main.go:21

2 @ 0x4b7845 0x48cd7d 0x4cc634
# labels: {"exectest.check":"7"}
#	0x4b7844	os.(*File).WriteTo+0xc4				/usr/local/go/src/os/file.go:265
#	0x48cd7c	internal/poll.(*FD).Read+0x9c				/usr/local/go/src/internal/poll/fd_unix.go:165
#	0x4cc633	io.Copy+0x33					/usr/local/go/src/io/io.go:388
#	0x4cc61f	os/exec.(*Cmd).writerDescriptor.func1+0x1f	/usr/local/go/src/os/exec/exec.go:602
#	0x4cd1ab	os/exec.(*Cmd).Start.func2+0x2b			/usr/local/go/src/os/exec/exec.go:757
`

func TestParse(t *testing.T) {
	gs := Parse(sample)
	if len(gs) != 2 {
		t.Fatalf("groups: got %d, want 2", len(gs))
	}
	g := gs[1]
	if g.Count != 2 || g.Labels != `{"exectest.check":"7"}` || len(g.Frames) != 5 || !g.Exec() {
		t.Errorf("group: got %+v, want 2 labelled os/exec goroutines with 5 frames", g)
	}
	if f := g.Frames[2]; f.Func != "io.Copy" || f.File != "/usr/local/go/src/io/io.go" || f.Line != 388 {
		t.Errorf("frame: got %+v, want io.Copy at io.go:388", f)
	}
	if gs[0].Exec() {
		t.Errorf("Exec of a group without os/exec frames: got true, want false")
	}
	s := g.String()
	for _, want := range []string{"2 goroutines started in os/exec.(*Cmd).Start.func2, waiting in os.(*File).WriteTo", "copies the command's output", "os/exec.(*Cmd).writerDescriptor.func1 /usr/local/go/src/os/exec/exec.go:602"} {
		if !strings.Contains(s, want) {
			t.Errorf("String: got %s\nwant it to contain %q", s, want)
		}
	}
	if strings.Contains(s, "internal/poll") {
		t.Errorf("String: got %s\nwant the poller's frames trimmed", s)
	}
	trimmed := g.Trimmed()
	var names []string
	for _, f := range trimmed {
		names = append(names, f.Func)
	}
	want := "os.(*File).WriteTo ... os/exec.(*Cmd).writerDescriptor.func1 os/exec.(*Cmd).Start.func2"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Trimmed: got %q, want %q", got, want)
	}
}

// runs gives each run of TestLabelled a label of its own: with -count=N,
// the goroutine of the run before may not have exited yet.
var runs atomic.Int64

func TestLabelled(t *testing.T) {
	stop := make(chan struct{})
	started := make(chan struct{})
	mine := fmt.Sprintf("mine-%d", runs.Add(1))
	pprof.Do(context.Background(), pprof.Labels("k", mine), func(context.Context) {
		go func() { close(started); <-stop }()
	})
	<-started
	defer close(stop)
	gs, err := Labelled("k", mine)
	if err != nil || len(gs) != 1 || gs[0].Count != 1 {
		t.Fatalf("Labelled: got %+v, %v, want the one labelled goroutine", gs, err)
	}
	if other, _ := Labelled("k", "theirs"); len(other) != 0 {
		t.Errorf("Labelled with another value: got %+v, want none", other)
	}
}

func TestStdlib(t *testing.T) {
	for fn, want := range map[string]bool{
		"io.Copy": true, "os/exec.(*Cmd).Wait": true, "bytes.(*Buffer).ReadFrom": true,
		"main.main": false, "github.com/x/y.F": false, "example.com/z.(*T).M.func1": false,
	} {
		if got := stdlib(fn); got != want {
			t.Errorf("stdlib(%q): got %v, want %v", fn, got, want)
		}
	}
}

// labelled keeps the groups whose labels hold the pair, and only those:
// a profile without the pair gives none, one with it gives its groups,
// not a group whose label merely begins the same.
func TestLabelledOfAProfile(t *testing.T) {
	other := strings.Replace(sample, `"exectest.check":"7"`, `"exectest.check":"77"`, 1)
	for _, c := range []struct {
		name, profile, want string
		groups              int
	}{
		{"the pair", sample, `"exectest.check":"7"`, 1},
		{"another value", sample, `"exectest.check":"8"`, 0},
		{"a longer value", other, `"exectest.check":"7"`, 0},
		{"the profile's first group and a second with the pair", sample + "\n" + strings.SplitN(sample, "\n\n", 2)[1], `"exectest.check":"7"`, 2},
	} {
		gs := labelled(c.profile, c.want)
		if len(gs) != c.groups {
			t.Errorf("%s: labelled: got %d groups, want %d", c.name, len(gs), c.groups)
		}
		for _, g := range gs {
			if g.Count != 2 || len(g.Frames) != 5 {
				t.Errorf("%s: group: got %+v, want the 2 labelled goroutines with 5 frames", c.name, g)
			}
		}
	}
}
