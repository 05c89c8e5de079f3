package proc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Cgroup2Mount finds where the unified hierarchy is mounted: /sys/fs/cgroup,
// /sys/fs/cgroup/unified on hybrid hosts, or wherever else it is.
func Cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", fmt.Errorf("cgroup v2: %w", err)
	}
	defer f.Close()
	var found []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// ... mountpoint(5th) ... - fstype source options
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields := strings.Fields(pre)
		if ok && len(fields) >= 5 && strings.HasPrefix(post, "cgroup2 ") {
			found = append(found, fields[4])
		}
	}
	for _, want := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		for _, m := range found {
			if m == want {
				return m, nil
			}
		}
	}
	if len(found) > 0 {
		return found[0], nil
	}
	return "", errors.New("cgroup v2: no cgroup2 mount in /proc/self/mountinfo")
}
