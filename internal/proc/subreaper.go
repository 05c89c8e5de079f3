package proc

// EnableSubreaper makes the test process a child subreaper: an orphan
// anywhere below it (a double fork, a setsid daemon whose parent exited)
// is reparented to it instead of to init, so it stays visible in
// /proc/self/task/*/children. The setting is process-wide and stays.
//
// The toolkit then reaps the orphans it identified as a fixture's, by pid
// ([Reap]); other orphans stay zombies of the test binary until it exits.
// It never waits for "any child", which would steal os/exec's children.
//
// The portable mode has none: it fails, and says so.
func EnableSubreaper() error { return current().enableSubreaper() }

// IsSubreaper reports whether the test process is a child subreaper.
func IsSubreaper() bool { return current().isSubreaper() }
