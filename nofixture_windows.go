package exectest

// noFixtureHere says why no fixture runs on Windows: until one exists,
// NewDescendant skips there (fails under EXECTEST_STRICT=1). proctest
// works on Windows as far as gopsutil does.
func noFixtureHere() string {
	return "exectest: no fixture runs on Windows yet: the fixture is a /bin/sh script (or the test binary, with Hermetic) that reports through a FIFO, and Windows has neither /bin/sh nor FIFOs"
}
