package watchdog

import (
	"bufio"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// serve is the watchdog's life: it learns the fixtures of the test
// process owner from in (descriptor or handle fd) until the test process
// is gone, and then cleans up what is left of them (see [readLines] for
// how it learns that the test process is gone).
func serve(owner proc.Identity, fd uintptr) {
	fixtures := map[string]*proc.Remains{}
	readLines(owner, fd, func(line string) {
		if m, err := parse(line); err == nil {
			apply(fixtures, owner.PID, m)
		}
	})
	cleanUp(fixtures)
}

// maxLine bounds one line of the protocol: a longer one is dropped.
const maxLine = 1 << 20

// scanLines calls each for every line of in until EOF. A line it cannot
// read must not end the watch early: only EOF says that the test process
// is gone.
func scanLines(in io.Reader, each func(string)) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		each(sc.Text())
	}
	if sc.Err() != nil {
		io.Copy(io.Discard, in)
	}
}

// killWait bounds the wait for the killed processes to die before the
// cgroups are removed (a cgroup with members cannot be).
const killWait = time.Second

// cleanUp kills every fixture's processes and removes their folders, then
// their cgroups once the killed have left them. The folders go first: they
// need no wait.
func cleanUp(fixtures map[string]*proc.Remains) {
	if len(fixtures) == 0 {
		return
	}
	rs := slices.Collect(maps.Values(fixtures))
	for _, r := range rs {
		r.Resolve()
	}
	killed, late := proc.KillRemains(rs)
	for _, r := range rs {
		r.RemoveFolder()
	}
	killed = append(killed, late()...)
	if !slices.ContainsFunc(rs, func(r *proc.Remains) bool { return r.Cgroup != "" }) {
		return // nothing waits for the killed to be gone
	}
	backoff.Poll(killWait, time.Millisecond, 20*time.Millisecond, func() bool {
		for _, id := range killed {
			if id.Alive() {
				return false
			}
		}
		return true
	})
	for _, r := range rs {
		r.RemoveCgroup()
	}
}
