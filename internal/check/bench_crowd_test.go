//go:build unix

package check_test

import (
	"bufio"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// crowdSize is how many unrelated processes the crowded benchmark runs.
const crowdSize = 1000

// BenchmarkCancelCheckCrowded shows that a check's cost grows with the
// fixture, not with the machine: it runs passing checks alternately with
// and without crowdSize unrelated processes on the machine, in blocks of
// ten, and reports the ratio of the medians. Target: crowded/quiet <=
// 1.25; and each over the floor run beside it (a floor check after every
// check), <= 1.1 (issue 20). Medians, not means: as root, one check in
// fifty waits some 15 ms for the kernel to move the fixture into its
// cgroup, whatever the crowd, and the mean of a hundred moves by 0.15 ms
// with it. After each start and stop of the crowd, a check and a floor
// check run unmeasured: the kernel's aftermath of a thousand execs or
// exits (up to 90 ms) lands on whatever runs next, and is the crowd's
// churn, not its presence. The ratio of the means is reported beside,
// for what the outliers weigh.
//
//	go test -run '^$' -bench CancelCheckCrowded -benchtime 200x .
func BenchmarkCancelCheckCrowded(b *testing.B) {
	var (
		c                     *crowd
		quiet, busy           []float64
		quietFloor, busyFloor []float64
	)
	defer func() { c.stop() }()
	for i := 0; b.Loop(); i++ {
		if i%10 == 0 { // crowded first, then quiet, and so on
			if c == nil {
				c = startCrowd(b, crowdSize)
			} else {
				c.stop()
				c = nil
			}
			toolkitCheck(b)
			floorCheck(b)
		}
		start := time.Now()
		toolkitCheck(b)
		took := time.Since(start)
		// And the floor beside it, in the same crowd or quiet: the crowd
		// slows the kernel's own work (fork, exit) too, which no check
		// can avoid.
		start = time.Now()
		floorCheck(b)
		floorTook := time.Since(start)
		if c != nil {
			busy, busyFloor = append(busy, ms(took)), append(busyFloor, ms(floorTook))
		} else {
			quiet, quietFloor = append(quiet, ms(took)), append(quietFloor, ms(floorTook))
		}
	}
	if len(quiet) == 0 || len(busy) == 0 {
		b.Skipf("crowded benchmark: got %d quiet and %d crowded checks, want both: use -benchtime 20x or more", len(quiet), len(busy))
	}
	b.ReportMetric(median(quiet), "quiet-ms/check")
	b.ReportMetric(median(busy), "crowded-ms/check")
	b.ReportMetric(median(busy)/median(quiet), "crowded/quiet")
	b.ReportMetric(median(quietFloor), "quiet-floor-ms/check")
	b.ReportMetric(median(busyFloor), "crowded-floor-ms/check")
	// Each over its own floor (issue 20's target: <= 1.1).
	b.ReportMetric((median(busy)/median(busyFloor))/(median(quiet)/median(quietFloor)), "crowded/quiet-over-floor")
	b.ReportMetric((mean(busy)/mean(busyFloor))/(mean(quiet)/mean(quietFloor)), "crowded/quiet-over-floor-of-means")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(max(len(xs), 1))
}

// crowd is a shell and n sleeps in a process group of their own.
type crowd struct {
	cmd    *exec.Cmd
	sleeps []proc.Identity
}

func startCrowd(b *testing.B, n int) *crowd {
	b.Helper()
	cmd := exec.Command("/bin/sh", "-c", `i=0; while [ $i -lt $0 ]; do /bin/sleep 600 & i=$((i+1)); done; echo ready; wait`, strconv.Itoa(n))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &crowd{cmd: cmd}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		c.stop()
		b.Fatalf("crowd: got %q from its shell, want ready", line)
	}
	for _, pid := range proc.Children(cmd.Process.Pid) {
		if id, err := proc.Identify(pid); err == nil {
			c.sleeps = append(c.sleeps, id)
		}
	}
	if len(c.sleeps) < n {
		c.stop()
		b.Fatalf("crowd: got %d sleeps, want %d", len(c.sleeps), n)
	}
	// The shell says ready once it has forked them all, not once they
	// run: until each has exec'd /bin/sleep and sleeps, their loaders
	// keep both processors busy and the first crowded checks would time
	// the crowd's start, not its presence.
	for _, id := range c.sleeps {
		asleep := func() bool { s, err := id.Stat(); return err != nil || s.Comm == "sleep" && s.State == "S" }
		if !backoff.Poll(time.Minute, time.Millisecond, 20*time.Millisecond, asleep) {
			c.stop()
			b.Fatalf("crowd: pid %d not asleep in /bin/sleep within a minute", id.PID)
		}
	}
	return c
}

// stop kills the crowd's group and reaps the sleeps, which come back to
// the test process (a child subreaper) as orphans.
func (c *crowd) stop() {
	if c == nil {
		return
	}
	if pgid := c.cmd.Process.Pid; proc.SafeGroup(pgid) {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	c.cmd.Wait()
	for _, id := range c.sleeps {
		for end := time.Now().Add(time.Second); id.Alive() && time.Now().Before(end); {
			time.Sleep(time.Millisecond)
		}
		proc.Reap(id)
	}
}
