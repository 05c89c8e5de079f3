package check

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// FixtureConfig is what the options of one fixture say. The root
// package's options fill it in; Errs holds their bad input, reported by
// [NewFixture].
type FixtureConfig struct {
	Lifetime time.Duration // how long the descendant lives if nothing kills it
	Escape   bool
	Shape    ShapeConfig
	Hermetic bool
	Errs     []string
}

// NewFixtureConfig is the configuration of a fixture with no options.
func NewFixtureConfig() FixtureConfig { return FixtureConfig{Lifetime: DefaultLifetime} }

// DefaultLifetime is how long the descendant lives if nothing kills it,
// unless exectest.Lifetime says otherwise.
const DefaultLifetime = 20 * time.Second

// ShapeConfig holds the tree shapes besides the default and [Escaping].
type ShapeConfig struct {
	Launch, IgnoreTerm, JobControl, DoubleFork bool
}

// checkShapes records the tree shapes that cannot be combined: each of
// them says where the descendant stands toward the child, and it stands in
// one place. IgnoresTerm combines with any.
func (c *FixtureConfig) checkShapes() {
	var got []string
	for name, on := range map[string]bool{"Escaping": c.Escape, "Launcher": c.Shape.Launch, "JobControl": c.Shape.JobControl, "DoubleFork": c.Shape.DoubleFork} {
		if on {
			got = append(got, "exectest."+name+"()")
		}
	}
	if len(got) > 1 {
		slices.Sort(got)
		c.Errs = append(c.Errs, fmt.Sprintf("exectest.NewDescendant: tree shapes: got %s, want at most one of Escaping, Launcher, JobControl and DoubleFork", strings.Join(got, " and ")))
	}
}
