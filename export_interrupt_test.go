package exectest

// CatchingInterrupts reports whether the test binary catches SIGINT and
// SIGTERM for the fixtures in use.
func CatchingInterrupts() bool {
	interrupts.mu.Lock()
	defer interrupts.mu.Unlock()
	return interrupts.catch != nil
}
