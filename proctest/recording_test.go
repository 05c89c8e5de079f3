package proctest_test

import (
	"fmt"
	"strings"
	"sync"
)

// recordingT records what a check reports instead of failing the test.
type recordingT struct {
	mu     sync.Mutex
	errors []string
}

func (r *recordingT) Helper() {}
func (r *recordingT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingT) text() string { return strings.Join(r.errors, "\n") }
