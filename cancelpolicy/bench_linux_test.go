package cancelpolicy_test

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/cancelpolicy"
)

// BenchmarkCancelPolicy measures Start to cancel to return of a command
// whose tree the cancel stops (sh waiting for its sleep), through
// cancelpolicy.Start and through the hand-written Setpgid + group kill,
// alternating in one run, and reports both and their ratio (target at
// most 1.1).
func BenchmarkCancelPolicy(b *testing.B) {
	var policy, manual time.Duration
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			policy += cancelOnce(b, startPolicy)
			manual += cancelOnce(b, startManual)
		} else {
			manual += cancelOnce(b, startManual)
			policy += cancelOnce(b, startPolicy)
		}
		i++
	}
	b.ReportMetric(float64(policy.Nanoseconds())/float64(i), "policy-ns/op")
	b.ReportMetric(float64(manual.Nanoseconds())/float64(i), "manual-ns/op")
	b.ReportMetric(float64(policy)/float64(manual), "ratio")
}

// BenchmarkContain is BenchmarkCancelPolicy with Contain against the
// same hand-written group kill: the price of a cgroup made, killed and
// removed per command. Skipped where this user may not make a cgroup.
func BenchmarkContain(b *testing.B) {
	if err := cancelpolicy.Run(context.Background(), exec.Command("/bin/true"), cancelpolicy.Contain()); err != nil {
		b.Skipf("cancelpolicy.Contain cannot run here: %v", err)
	}
	var contained, manual time.Duration
	i := 0
	for b.Loop() {
		contained += cancelOnce(b, startContained)
		manual += cancelOnce(b, startManual)
		i++
	}
	b.ReportMetric(float64(contained.Nanoseconds())/float64(i), "contained-ns/op")
	b.ReportMetric(float64(manual.Nanoseconds())/float64(i), "manual-ns/op")
	b.ReportMetric(float64(contained)/float64(manual), "ratio")
}

// startWith starts through cancelpolicy.Start with opts.
func startWith(opts ...cancelpolicy.Option) func(context.Context, *exec.Cmd) (func() error, error) {
	return func(ctx context.Context, cmd *exec.Cmd) (func() error, error) {
		s, err := cancelpolicy.Start(ctx, cmd, opts...)
		if err != nil {
			return nil, err
		}
		return s.Wait, nil
	}
}

var (
	startPolicy    = startWith()
	startContained = startWith(cancelpolicy.Contain())
)

func startManual(_ context.Context, cmd *exec.Cmd) (func() error, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = cancelpolicy.DefaultWaitDelay
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd.Wait, nil
}

func cancelOnce(b *testing.B, start func(context.Context, *exec.Cmd) (func() error, error)) time.Duration {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	//execcheck:ignore the benchmark hands the command to the policy under test (start)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "/bin/sleep 20 & wait")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	begin := time.Now()
	wait, err := start(ctx, cmd)
	if err != nil {
		b.Fatal(err)
	}
	cancel()
	if err := wait(); err == nil {
		b.Fatalf("%s: Wait after the cancel: got nil, want the kill's error", cmd)
	}
	return time.Since(begin)
}
