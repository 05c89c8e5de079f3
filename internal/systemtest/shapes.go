package systemtest

import (
	"time"

	"github.com/exectest/exectest"
)

// Shapes are the two fixture shapes; every verdict must hold for both.
var Shapes = []struct {
	Name string
	Opts []exectest.DescendantOption
	// SleepText is what a message shows of the descendant's command line.
	SleepText string
}{
	{"shell", nil, "/bin/sleep 20"},
	{"hermetic", []exectest.DescendantOption{exectest.Hermetic()}, "-exectest.fixture=descendant"},
}

// HungCost bounds what a hung check may cost: the bound, the kill and the
// messages, far below the descendant's 20 s lifetime. Generous on purpose:
// the machines are shared.
const HungCost = time.Second + 5*time.Second
