// Package systemtest is the harness of exectest's own tests: the runners
// as the field writes them, broken and fixed (runners.go), a check run on
// a recording testing.TB with its verdict asserted (fake.go), and what the
// portable mode can see (portable.go). The root package's tests, the
// engine's in internal/check and the system scenarios here use it; a
// helper two of them need lives here, once.
package systemtest
