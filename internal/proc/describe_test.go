package proc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/proc"
)

// A process found moments after it started was said to have "started 0s
// ago", which reads as no age at all: an age is said in ms, and below the
// 10ms a start time is known to as "<10ms".
func TestFactsSayShortAgesInMilliseconds(t *testing.T) {
	for _, c := range []struct {
		age  time.Duration
		want string
	}{
		{0, "started <10ms ago"},
		{40 * time.Millisecond, "started 40ms ago"},
		{1230 * time.Millisecond, "started 1.23s ago"},
	} {
		got := proc.Facts{PID: 42, PPID: 1, PGID: 42, SID: 42, State: "S", Age: c.age, Cmdline: "/bin/sleep 20"}.String()
		if !strings.Contains(got, c.want) {
			t.Errorf("age %v: got %q, want it to say %q", c.age, got, c.want)
		}
	}
}
