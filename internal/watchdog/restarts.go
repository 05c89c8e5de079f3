package watchdog

// AllowRestarts gives the test process back the starts a lost watchdog
// used up (see maxStarts), for a test that kills the watchdog on purpose
// and would otherwise use up the budget by its third run under
// go test -count. Only tests call it.
func AllowRestarts() {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	guard.starts = 0
	if guard.w != nil {
		guard.starts = 1
	}
}
