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
// process owner from in until EOF, which comes when the test process
// exits, and then cleans up what is left of them.
func serve(owner int, in io.Reader) {
	fixtures := map[string]*proc.Remains{}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if m, err := parse(sc.Text()); err == nil {
			apply(fixtures, owner, m)
		}
	}
	if sc.Err() != nil {
		// A line it cannot read must not end the watch early: only EOF
		// says that the test process is gone.
		io.Copy(io.Discard, in)
	}
	cleanUp(fixtures)
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
