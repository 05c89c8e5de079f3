package cancelpolicy_test

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/envswitch"
)

// Many commands under one long-lived context leave nothing behind: Wait
// stops the context watch (a leak would keep each command's watch, group
// and exec.Cmd, over 1 KiB each, reachable from the context) and closes
// the pidfd. 10,000 commands by default: 100,000 take minutes on a shared
// machine, and a per-command leak shows at 10,000 already as over ten
// times the allowance. EXECTEST_STRESS=long runs 100,000.
func TestNoLeakUnderLongLivedContext(t *testing.T) {
	n := 10_000
	long, err := envswitch.Long()
	switch {
	case err != nil:
		t.Fatal(err)
	case long:
		n = 100_000
	case testing.Short():
		n = 1_000
	}
	const allowance = 1 << 20 // bytes of heap growth for all n commands
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := func() {
		if err := cancelpolicy.Run(ctx, exec.CommandContext(ctx, "/bin/true")); err != nil {
			t.Fatalf("Run /bin/true: %v", err)
		}
	}
	for range 100 { // warm up the pools and caches
		run()
	}
	heap0, fds0 := liveHeap(), openFDs(t)
	for range n {
		run()
	}
	heap1, fds1 := liveHeap(), openFDs(t)
	t.Logf("%d commands under one context: heap %d -> %d bytes, descriptors %d -> %d", n, heap0, heap1, fds0, fds1)
	if growth := int64(heap1) - int64(heap0); growth > allowance {
		t.Errorf("live heap after %d commands under one context: got %d bytes more, want at most %d (%d per command)", n, growth, allowance, growth/int64(n))
	}
	if fds1 > fds0 {
		t.Errorf("open descriptors after %d commands: got %d, want at most %d", n, fds1, fds0)
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}
