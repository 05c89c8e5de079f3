package proc

import (
	"strconv"
	"strings"
	"time"
)

// linuxReadStat reads /proc/PID/stat.
func linuxReadStat(pid int) (Stat, error) {
	b, err := ReadFile(procPath(pid, "stat"))
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(string(b))
}

// ticksPerSecond is USER_HZ, the unit of start times in /proc: 100 on
// every Linux architecture.
const ticksPerSecond = 100

// linuxAge is how long ago a process that started at start (clock ticks
// since boot) started, to the tick.
func linuxAge(start uint64) time.Duration {
	b, err := ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	f, _, _ := strings.Cut(string(b), " ")
	up, err := strconv.ParseFloat(f, 64)
	if err != nil {
		return 0
	}
	d := time.Duration(up*float64(time.Second)) - time.Duration(start)*time.Second/ticksPerSecond
	return max(d, 0).Round(ageResolution)
}
