// Package goroutines reads the goroutine profile, with its pprof labels,
// so that a leak check can see exactly the goroutines one check started:
// goroutines inherit their creator's labels, os/exec's among them.
package goroutines

import (
	"bufio"
	"fmt"
	"runtime/pprof"
	"strconv"
	"strings"
)

// Group is the goroutines that share one stack and one label set.
type Group struct {
	Count  int
	Labels string // as printed: {"key":"value", ...}
	Frames []Frame
}

// Frame is one frame of a stack, innermost first.
type Frame struct {
	Func string
	File string
	Line int
}

// Labelled returns the groups whose labels hold key=value.
func Labelled(key, value string) ([]Group, error) {
	var b strings.Builder
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		return nil, err
	}
	return labelled(b.String(), strconv.Quote(key)+":"+strconv.Quote(value)), nil
}

// labelled is Labelled of a profile: it parses only the groups whose
// labels hold want, and nothing when no label does, as after a check
// that leaked nothing (the whole parse cost as much as a tenth of a
// passing check's time after run returns).
func labelled(profile, want string) []Group {
	if !strings.Contains(profile, want) {
		return nil
	}
	var out []Group
	for block := range strings.SplitSeq(profile, "\n\n") {
		if !strings.Contains(block, want) {
			continue
		}
		for _, g := range Parse(block) {
			if strings.Contains(g.Labels, want) {
				out = append(out, g)
			}
		}
	}
	return out
}

// Parse reads a goroutine profile written with debug=1.
func Parse(profile string) []Group {
	var groups []Group
	var cur *Group
	sc := bufio.NewScanner(strings.NewReader(profile))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			cur = nil
		case strings.HasPrefix(line, "# labels: "):
			if cur != nil {
				cur.Labels = strings.TrimPrefix(line, "# labels: ")
			}
		case strings.HasPrefix(line, "#\t"):
			if cur != nil {
				cur.Frames = append(cur.Frames, parseFrame(line))
			}
		default:
			count, _, ok := strings.Cut(line, " @ ")
			if n, err := strconv.Atoi(count); ok && err == nil {
				groups = append(groups, Group{Count: n})
				cur = &groups[len(groups)-1]
			}
		}
	}
	return groups
}

// parseFrame reads "#\t0xADDR\tFUNC+0xOFF\tFILE:LINE".
func parseFrame(line string) Frame {
	fields := strings.Fields(strings.TrimPrefix(line, "#"))
	var f Frame
	if len(fields) >= 2 {
		f.Func, _, _ = strings.Cut(fields[1], "+0x")
	}
	if len(fields) >= 3 {
		file, ln, _ := strings.Cut(fields[2], ":")
		f.File = file
		f.Line, _ = strconv.Atoi(ln)
	}
	return f
}

// Exec reports whether the group is one of os/exec's own goroutines.
func (g Group) Exec() bool {
	for _, f := range g.Frames {
		if strings.HasPrefix(f.Func, "os/exec.") {
			return true
		}
	}
	return false
}

// Trimmed keeps the frames that say who leaked the goroutine and where
// it waits: the innermost one outside the runtime, the poller and the
// system calls; os/exec's; the caller's own (outside the standard
// library); and the outermost. A run of other frames becomes one "...".
func (g Group) Trimmed() []Frame {
	var kept []Frame
	for _, f := range g.Frames {
		if !noise(f.Func) {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		if len(g.Frames) > 0 {
			return g.Frames[:1]
		}
		return nil
	}
	var out []Frame
	for i, f := range kept {
		if i == 0 || i == len(kept)-1 || strings.HasPrefix(f.Func, "os/exec.") || !stdlib(f.Func) {
			out = append(out, f)
		} else if out[len(out)-1].Func != elided {
			out = append(out, Frame{Func: elided})
		}
	}
	return out
}

const elided = "..."

// stdlib reports whether fn is in the standard library: the first
// element of its import path has no dot (package main is the caller's).
func stdlib(fn string) bool {
	if first, _, ok := strings.Cut(fn, "/"); ok {
		return !strings.Contains(first, ".")
	}
	pkg, _, _ := strings.Cut(fn, ".")
	return pkg != "main"
}

// why explains os/exec's goroutines, by the function that starts them.
var why = map[string]string{
	"os/exec.(*Cmd).writerDescriptor.func1": "copies the command's output into a Writer that is not an *os.File; it ends at EOF, when no process holds the pipe's write end",
	"os/exec.(*Cmd).childStdin.func1":       "copies Stdin into the command; it ends when the input ends or the command stops reading",
	"os/exec.(*Cmd).watchCtx":               "watches the context to call Cancel; it ends when Wait returns",
}

// String is a header line (how many, where it started, what it does) and
// the trimmed frames, innermost first.
func (g Group) String() string {
	fr := g.Trimmed()
	var b strings.Builder
	noun := "goroutine"
	if g.Count != 1 {
		noun = "goroutines"
	}
	fmt.Fprintf(&b, "%d %s", g.Count, noun)
	if len(fr) > 0 {
		fmt.Fprintf(&b, " started in %s, waiting in %s", fr[len(fr)-1].Func, fr[0].Func)
	}
	for _, f := range g.Frames {
		if w, ok := why[f.Func]; ok {
			fmt.Fprintf(&b, " (os/exec: %s)", w)
			break
		}
	}
	for _, f := range fr {
		if f.Func == elided {
			b.WriteString("\n\t    ...")
			continue
		}
		fmt.Fprintf(&b, "\n\t    %s %s:%d", f.Func, f.File, f.Line)
	}
	return b.String()
}

// noise is a frame that says nothing about who leaked a goroutine.
func noise(fn string) bool {
	for _, p := range []string{"runtime.", "internal/poll.", "syscall.", "internal/runtime/", "internal/syscall/"} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}
