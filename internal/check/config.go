package check

import "time"

// Mode is when a check cancels run's context.
type Mode int

const (
	// CancelWhenAlive cancels as soon as the descendant has proved it runs.
	CancelWhenAlive Mode = iota
	// CancelAfter cancels Delay after run starts.
	CancelAfter
	// CancelAfterRandom cancels after a delay drawn from [Delay, UpTo).
	CancelAfterRandom
)

// Config is what the options of one check say. The root package's
// options fill it in; Errs holds their bad input, reported by [Run].
type Config struct {
	Settle       time.Duration // how long the looks after run returns go on; 0: the defaults
	NoGoroutines bool
	NoFDs        bool
	Bound        time.Duration // from the cancel to run's return
	Mode         Mode
	Delay, UpTo  time.Duration
	ProofTimeout time.Duration
	Errs         []string
}

// NewConfig is the configuration of a check with no options.
func NewConfig() Config { return Config{Bound: DefaultBound, ProofTimeout: DefaultProofTimeout} }

// DefaultBound is how soon after cancel run must return unless
// exectest.Within says otherwise.
const DefaultBound = time.Second

// DefaultProofTimeout is how long a check waits for the descendant's
// proof of life unless exectest.ProofTimeout says otherwise.
const DefaultProofTimeout = 10 * time.Second
