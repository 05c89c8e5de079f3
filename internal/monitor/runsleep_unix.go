//go:build unix

package monitor

import (
	"fmt"
	"os"
	"strconv"

	"github.com/exectest/exectest/internal/proc"
	"golang.org/x/sys/unix"
)

// runsSleep says why pid, named "sleep", does not run the program at
// /bin/sleep in its own root (a script there runs its interpreter), or ""
// when it does or the test may not look (another user's process).
func runsSleep(id proc.Identity) string {
	if proc.Portable() {
		return runsSleepPortable(id)
	}
	pid := id.PID
	var exe, file unix.Stat_t
	dir := "/proc/" + strconv.Itoa(pid)
	if unix.Stat(dir+"/exe", &exe) != nil || unix.Stat(dir+"/root/bin/sleep", &file) != nil {
		return ""
	}
	if exe.Dev != file.Dev || exe.Ino != file.Ino {
		target, _ := os.Readlink(dir + "/exe")
		return fmt.Sprintf("pid %d: program: got %s, want /bin/sleep itself (a script in its place runs its interpreter)", pid, target)
	}
	return ""
}
