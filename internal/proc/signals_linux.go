package proc

import (
	"strconv"
	"strings"
)

// linuxIgnored reads the SigIgn line of /proc/PID/status.
func linuxIgnored(pid int) (SignalSet, bool) {
	b, err := ReadFile(procPath(pid, "status"))
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return SignalSet(n), err == nil
		}
	}
	return 0, false
}
