// Package illtyped is reduced from k-kohey/axe's idb: a package whose
// generated client is not committed, so it does not type-check. It was
// not checked at all: the load error was all execcheck printed. The code
// that does not use the missing package is checked as usual; a run in
// code that does is listed as unknown; a call into it is one execcheck
// cannot follow.
package illtyped

import (
	"bytes"
	"context"
	"os/exec"

	"example.com/t/illtyped/gen"
)

// Plain does not use gen: its hang is found.
func Plain(ctx context.Context) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "-c", "sleep 20 & wait")
	cmd.Stdout = &out
	return cmd.Run() // want `^hang: stdout is a \*bytes.Buffer and nothing bounds Wait \(no WaitDelay\); a cancel kills only the direct child`
}

// Client runs the companion with the generated client's options.
func Client(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "companion")
	cmd.Args = append(cmd.Args, gen.Flags()...)
	return cmd.Run() // unknown: TestIllTyped
}

// configure may kill the group, for all execcheck can tell.
func configure(cmd *exec.Cmd) {
	gen.Configure(cmd)
}

// Configured passes its command to code that does not type-check.
func Configured(ctx context.Context) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "companion")
	cmd.Stdout = &out
	configure(cmd)
	return cmd.Run() // unknown: TestIllTyped
}

// runner keeps the generated client.
type runner struct{ client gen.Client }

// Serve hands its command to the client: unknown.
func (r *runner) Serve(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "server")
	r.client.Attach(cmd)
	return cmd.Run() // unknown: TestIllTyped
}
