package testenv

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/shirou/gopsutil/v4/process"
)

// AwaitListed waits up to d until pid is listed as a child of the test
// process with arg in its command line, and returns what it last saw.
// Under Wine a process is listed 0.2 to 0.9 s after Start returned, on a
// busy machine (measured): a check before that sees nothing, which says
// nothing of the check.
func AwaitListed(pid int, arg string, d time.Duration) (last string, ok bool) {
	ok = backoff.Poll(d, time.Millisecond, 50*time.Millisecond, func() bool {
		last = listed(pid)
		return strings.HasPrefix(last, "ppid ") && strings.Contains(last, arg)
	})
	return last, ok
}

// listed is pid's parent and command line as gopsutil lists them, or why
// it does not.
func listed(pid int) string {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return "not listed: " + err.Error()
	}
	ppid, err := p.Ppid()
	if err != nil {
		return "no parent: " + err.Error()
	}
	if int(ppid) != os.Getpid() {
		return "not a child of the test process: ppid " + strconv.Itoa(int(ppid))
	}
	args, err := p.CmdlineSlice()
	if err != nil {
		return "no command line: " + err.Error()
	}
	return "ppid " + strconv.Itoa(int(ppid)) + ": " + strings.Join(args, " ")
}
