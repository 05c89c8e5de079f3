package monitor

import "github.com/exectest/exectest/internal/proc"

// runsSleep is "" on Windows: no fixture runs /bin/sleep there.
func runsSleep(proc.Identity) string { return "" }
