package exectest

// runsSleep is "" on Windows: no fixture runs /bin/sleep there.
func runsSleep(int) string { return "" }
