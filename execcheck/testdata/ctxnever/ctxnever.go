// Package ctxnever runs commands under a context parameter, reduced from
// kubectl-ai's k8s-bench: where every call fills it with
// context.Background(), no cancel can come.
package ctxnever

import (
	"bytes"
	"context"
	"os/exec"
	"time"
)

type task struct {
	log bytes.Buffer
}

// runCleanup is called once, deferred, with context.Background().
func (t *task) runCleanup(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "./cleanup.sh")
	cmd.Stdout = &t.log
	return cmd.Run()
}

// Run is the task.
func (t *task) Run() {
	defer func() { _ = t.runCleanup(context.Background()) }()
}

// verify is called with a context that times out once: it can be done.
func verify(ctx context.Context, script string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Stdout = &out
	return cmd.Run() // want `^hang: `
}

// Verify calls verify.
func Verify(script string) error {
	_ = verify(context.TODO(), script)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return verify(ctx, script)
}

// step is also a value, whose calls execcheck does not see.
func step(ctx context.Context, script string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Stdout = &out
	return cmd.Run() // want `^hang: `
}

var steps = []func(context.Context, string) error{step}

// Steps runs step.
func Steps() error { return step(context.Background(), "true") }

// Exported may be called from other packages with any context.
func Exported(ctx context.Context, script string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Stdout = &out
	return cmd.Run() // want `^hang: `
}

// Local calls Exported with context.Background().
func Local() error { return Exported(context.Background(), "true") }

type cleaner interface {
	clean(ctx context.Context) error
}

type runner struct{ out bytes.Buffer }

// clean is a method an interface names: a call through the interface
// may give it any context.
func (r *runner) clean(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, "sh", "-c", "./clean.sh")
	cmd.Stdout = &r.out
	return cmd.Run() // want `^hang: `
}

// Clean calls clean directly, and through the interface.
func Clean(c cleaner) error {
	r := &runner{}
	_ = r.clean(context.Background())
	return c.clean(context.Background())
}

// run is called only by listSolvers, which passes its own context on:
// every call of listSolvers gives context.Background() (reduced from
// go-minizinc's driver).
func run(ctx context.Context, args ...string) ([]byte, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "minizinc", args...)
	cmd.Stdout = &out
	err := cmd.Run()
	return out.Bytes(), err
}

func listSolvers(ctx context.Context) ([]byte, error) {
	return run(ctx, "--solvers-json")
}

// Solvers lists the solvers.
func Solvers() ([]byte, error) { return listSolvers(context.Background()) }

// probe passes on a context one of whose callers can cancel.
func probe(ctx context.Context) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "minizinc", "--version")
	cmd.Stdout = &out
	return cmd.Run() // want `^hang: `
}

func probeVia(ctx context.Context) error { return probe(ctx) }

// Probe probes twice, once with a context that times out.
func Probe() error {
	_ = probeVia(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return probeVia(ctx)
}
