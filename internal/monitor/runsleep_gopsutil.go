//go:build unix

package monitor

import (
	"fmt"
	"os"

	"github.com/exectest/exectest/internal/proc"
	"github.com/shirou/gopsutil/v4/process"
)

// runsSleepPortable is runsSleep for the portable mode: the program gopsutil
// says the process runs must be /bin/sleep itself; "" where gopsutil cannot
// tell (another user's process, a system without it).
func runsSleepPortable(id proc.Identity) string {
	p, err := process.NewProcess(int32(id.PID))
	if err != nil {
		return ""
	}
	exe, err := p.Exe()
	if err != nil || !id.Alive() {
		return ""
	}
	got, err := os.Stat(exe)
	want, err2 := os.Stat("/bin/sleep")
	if err != nil || err2 != nil || os.SameFile(got, want) {
		return ""
	}
	return fmt.Sprintf("pid %d: program: got %s, want /bin/sleep itself (a script in its place runs its interpreter)", id.PID, exe)
}
