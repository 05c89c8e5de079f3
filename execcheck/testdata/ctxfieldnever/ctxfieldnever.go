// Package ctxfieldnever holds contexts kept in fields, reduced from
// assetto-server-manager: the constructor stores a context.WithCancel
// of context.Background() and its CancelFunc, which nothing calls; the
// command is made in a method from the field. That context is never
// done: no cancel comes.
package ctxfieldnever

import (
	"bytes"
	"context"
	"os/exec"
)

type server struct {
	ctx context.Context
	cfn context.CancelFunc
	out bytes.Buffer
}

func newServer() *server {
	ctx, cfn := context.WithCancel(context.Background())
	return &server{ctx: ctx, cfn: cfn}
}

// Run makes the command from the field: no cancel.
func (s *server) Run(script string) error {
	cmd := exec.CommandContext(s.ctx, "sh", "-c", script)
	cmd.Stdout = &s.out
	return cmd.Run()
}

// stoppable keeps a cancel that Stop calls: a cancel comes.
type stoppable struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func newStoppable() *stoppable {
	s := &stoppable{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

func (s *stoppable) Stop() { s.cancel() }

func (s *stoppable) Run(script string) ([]byte, error) {
	return exec.CommandContext(s.ctx, "sh", "-c", script).Output() // want `^hang: `
}

// stored keeps the cancel in a field another method reads.
type stored struct {
	ctx context.Context
	cfn context.CancelFunc
}

func newStored() *stored {
	ctx, cfn := context.WithCancel(context.Background())
	return &stored{ctx: ctx, cfn: cfn}
}

func (s *stored) Close() {
	if s.cfn != nil {
		s.cfn()
	}
}

func (s *stored) Run(script string) ([]byte, error) {
	return exec.CommandContext(s.ctx, "sh", "-c", script).Output() // want `^hang: `
}

// dropped discards the cancel: never done.
type dropped struct{ ctx context.Context }

func newDropped() *dropped {
	ctx, _ := context.WithCancel(context.Background())
	return &dropped{ctx: ctx}
}

func (d *dropped) Run(script string) ([]byte, error) {
	return exec.CommandContext(d.ctx, "sh", "-c", script).Output()
}

// given keeps a caller's context: it may be done.
type given struct{ ctx context.Context }

func newGiven(ctx context.Context) *given { return &given{ctx: ctx} }

func (g *given) Run(script string) ([]byte, error) {
	return exec.CommandContext(g.ctx, "sh", "-c", script).Output() // want `^hang: `
}

var (
	_ = newServer
	_ = newStoppable
	_ = newStored
	_ = newDropped
	_ = newGiven
)
